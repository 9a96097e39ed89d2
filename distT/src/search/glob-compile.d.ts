export { MAX_BRACE_RANGE, MAX_GLOB_LENGTH, checkGlobBalance } from './glob-parse.js';
/** Options of {@link compileGlob}. */
export interface GlobOptions {
    /** Match letter case exactly (default false: `*.TS` finds `a.ts`). */
    caseSensitive?: boolean;
    /** Argument name used in error messages (default `pattern`). */
    argName?: string;
    /**
     * The workspace root and the absolute directory searched. With it, an absolute pattern (or one whose
     * literal start climbs with `..`) is taken relative to `dir`: `/workspace/src/*.ts` searching
     * `/workspace` becomes `src/*.ts`. Without it a leading `/` is dropped.
     */
    base?: {
        root: string;
        dir: string;
    };
}
/**
 * A compiled glob: `matches(relPath)` tests a path relative to the search directory (POSIX, no
 * leading `/`, no `.` or `..` components). `basenameOnly` is true for patterns without `/`, which match
 * the last component only. `pattern` is the glob as matched: relative to the search directory, without
 * a leading `!`.
 */
export interface GlobMatcher {
    readonly pattern: string;
    readonly basenameOnly: boolean;
    matches(relPath: string): boolean;
}
/**
 * Compiles a glob with picomatch's syntax and meaning (see {@link GlobParser}): `*`, `**`,
 * `?`, `[...]`, `{a,b}` (nested too), extglobs; dot-files matched like any other name; line breaks
 * in names are ordinary characters. A pattern without `/` matches the basename at any depth (`*.ts`);
 * a pattern with `/` matches the path relative to the search directory (`src/**\/*.test.ts`; a leading
 * `./` is dropped). An absolute pattern is taken relative to `options.base.dir` (see
 * {@link GlobOptions.base}) and always matches whole relative paths. A leading `!` negates the pattern
 * (`!*.test.ts`: every file but tests). Case-insensitive unless `caseSensitive`.
 *
 * Matching runs in time linear in the path's length for every pattern (a lazily built DFA, not a
 * backtracking RegExp), so no glob can stall the thread.
 * Errors: `invalid_pattern` for an empty pattern, one holding a NUL byte, one over {@link MAX_GLOB_LENGTH} characters, an
 * unbalanced brace or bracket, an invalid class such as `[z-a]`, a range over {@link MAX_BRACE_RANGE}
 * names, a `!(...)` inside a group or more than one, or (with `base`) an absolute pattern under the
 * workspace but not under the searched directory; `outside_workspace` for an absolute pattern (or a
 * `../` one) outside the workspace. Messages quote at most 200 characters of the pattern.
 */
export declare function compileGlob(pattern: string, options?: GlobOptions): GlobMatcher;
