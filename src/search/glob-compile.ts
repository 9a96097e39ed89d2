import { ToolError } from '../core/errors.js';
import { quoteForMessage } from '../fs/text.js';
import { isInside, joinPath, relativePath } from '../fs/paths.js';
import { MAX_GLOB_LENGTH, MAX_BRACE_RANGE, checkGlobBalance, GlobParser, reverseNodes } from './glob-parse.js';
import { MAX_STATES, Nfa, NfaRunner, LazyDfa, LookaheadMatcher } from './glob-automaton.js';

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
  base?: { root: string; dir: string };
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


/** Characters that make a path segment a glob rather than a literal name. */
const GLOB_SYNTAX = /[*?[\]{}()"\\]/;

/**
 * Takes an absolute pattern, or one whose literal leading segments hold `.` or `..`, relative to
 * `base.dir`. Returns the relative pattern; throws `outside_workspace` when its literal start lies
 * outside the workspace, `invalid_pattern` when it lies inside but not under `dir`.
 */
function rebase(source: string, base: { root: string; dir: string }, argName: string, quoted: string): string {
  const absolute = source.startsWith('/');
  const segments = source.split('/');
  let literal = 0;
  while (literal < segments.length && !GLOB_SYNTAX.test(segments[literal] as string)) literal += 1;
  const prefix = segments.slice(0, literal);
  const rest = segments.slice(literal).join('/');
  const prefixPath = absolute ? joinPath('/', ...prefix) : joinPath(base.dir, ...prefix);
  const root = joinPath(base.root);
  const dir = joinPath(base.dir);
  let relative: string | undefined;
  if (isInside(dir, prefixPath)) {
    relative = [relativePath(dir, prefixPath), rest].filter((part) => part.length > 0).join('/');
  } else if (isInside(prefixPath, dir) && (rest === '**' || rest.startsWith('**/')) && (absolute || isInside(root, prefixPath))) {
    // `/workspace/**/*.ts` searching /workspace/src: `**` spans the directories down to src. A relative
    // pattern that climbs above the workspace (`../../**/passwd`) asks for files outside it: refused below.
    relative = rest;
  }
  if (relative === undefined) {
    if (!isInside(root, prefixPath)) {
      throw new ToolError(
        'outside_workspace',
        `${argName} ${quoted} points outside the workspace (${root}); give a glob relative to the searched ` +
          `directory (such as *.ts or src/**/*.ts) or an absolute one under ${root}`,
      );
    }
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} is not under the searched directory ${dir}; set dir_path to ${literal === segments.length ? joinPath(prefixPath, '..') : prefixPath} ` +
        `or give a glob relative to ${dir}`,
    );
  }
  if (relative.length === 0) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} is the searched directory itself; add a glob for the files in it, such as ${dir === '/' ? '' : dir}/**/*`,
    );
  }
  return relative;
}

/** A `..` alternative inside braces (`{..,src}`, `{a,../b}`): a segment that may climb. */
const BRACED_PARENT = /(^|[{,])\.\.($|[},])/;

/**
 * Refuses a `..` segment after a wildcard in `source` (relative to `base.dir`; a literal start with
 * `..` was already resolved by {@link rebase}). The walk's paths never hold `..`, so such a glob could
 * only ever match nothing, while it reads as a way out: `**\/../../etc/passwd` from the root.
 * ToolError `outside_workspace` when the segments could climb above the workspace root (`**` taken
 * as no folder, every other segment as one), else `invalid_pattern`, each saying how to write it.
 */
function refuseClimbAfterWildcard(source: string, base: { root: string; dir: string }, argName: string, quoted: string): void {
  if (!source.includes('..')) return;
  const root = joinPath(base.root);
  const dir = joinPath(base.dir);
  let depth = isInside(root, dir) ? relativePath(root, dir).split('/').filter((part) => part.length > 0).length : 0;
  let climbs = false;
  for (const segment of source.split('/')) {
    if (segment === '..' || BRACED_PARENT.test(segment)) {
      climbs = true;
      depth -= 1;
      if (depth < 0) {
        throw new ToolError(
          'outside_workspace',
          `${argName} ${quoted} points outside the workspace (${root}): a ".." after a wildcard climbs back out of the folders ` +
            `the wildcard matched, up to above the root, and only files in the workspace are searched; give a glob relative to ` +
            `the searched directory with no ".." after a wildcard (such as *.ts or src/**/*.ts), or an absolute one under ${root}`,
        );
      }
    } else if (segment !== '' && segment !== '.' && !segment.includes('**')) {
      depth += 1;
    }
  }
  if (climbs && source.split('/').includes('..')) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} has ".." after a wildcard, which no path matches (the search matches paths relative to ${dir}, ` +
        'which hold no ".."); write the glob without it, with any ".." at its start (../lib/**/*.ts), or set dir_path to the folder to search',
    );
  }
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
 * workspace but not under the searched directory, or a `..` segment after a wildcard that stays inside
 * the workspace (no path matches it); `outside_workspace` for an absolute pattern (or a `../` one)
 * outside the workspace, and (with `base`) for one whose `..` segments after a wildcard can climb above
 * the workspace root (`**\/../../etc/passwd`). Messages quote at most 200 characters of the pattern.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const argName = options.argName ?? 'pattern';
  const caseSensitive = options.caseSensitive === true;
  const quoted = quoteForMessage(pattern);
  const invalid = (problem: string): never => {
    throw new ToolError('invalid_pattern', `${argName} ${quoted} is not a valid glob: ${problem}`);
  };
  if (pattern.includes('\0')) {
    // No path holds a NUL, so such a glob could only ever match nothing.
    throw new ToolError('invalid_pattern', `${argName} ${quoteForMessage(pattern, { json: true })} contains a NUL byte, which no file name holds; remove it`);
  }
  let source = pattern.trim();
  if (source.length === 0) {
    throw new ToolError('invalid_pattern', `${argName} is empty; give a glob such as *.ts or src/**/*.test.ts`);
  }
  if (source.length > MAX_GLOB_LENGTH) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} ${quoted} is ${source.length} characters long; at most ${MAX_GLOB_LENGTH}: use wildcards ` +
        '(*.ts, src/**) instead of listing names, or search in several calls',
    );
  }
  // A leading `!` (not `!(`) negates the pattern; `!!` cancels out (picomatch's rule).
  let bangs = 0;
  while (source[bangs] === '!' && source[bangs + 1] !== '(') bangs += 1;
  const negated = bangs % 2 === 1;
  source = source.slice(bangs);
  while (source.startsWith('./')) source = source.slice(2);
  let anchored = false;
  const segments = source.split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_SYNTAX.test(segment));
  const literalStart = firstGlob === -1 ? segments : segments.slice(0, firstGlob);
  if (source.startsWith('/') || literalStart.some((segment) => segment === '.' || segment === '..')) {
    anchored = true;
    source = options.base ? rebase(source, options.base, argName, quoted) : source.replace(/^\/+/, '');
  }
  if (source.length === 0) {
    throw new ToolError('invalid_pattern', `${argName} is empty; give a glob such as *.ts or src/**/*.test.ts`);
  }
  if (options.base) refuseClimbAfterWildcard(source, options.base, argName, quoted);
  const problem = checkGlobBalance(source);
  if (problem) invalid(problem);

  const parser = new GlobParser(source, { caseSensitive, fail: invalid });
  const nodes = parser.parse();
  const tooBig = (): never =>
    invalid(`it expands to more than ${MAX_STATES} automaton states; use fewer alternatives or shorter ranges`);
  const main = new NfaRunner(new Nfa(nodes, caseSensitive, tooBig), parser.classes);
  let run: (input: string) => boolean;
  if (parser.lookahead) {
    const reversed = new NfaRunner(new Nfa(reverseNodes(parser.lookahead), caseSensitive, tooBig), parser.classes);
    const matcher = new LookaheadMatcher(main, reversed, caseSensitive);
    run = (input) => matcher.matches(input);
  } else {
    const dfa = new LazyDfa(main, caseSensitive);
    run = (input) => dfa.matches(input);
  }
  // picomatch also accepts a path equal to the pattern's text (`my file (1).md`, where `(1)` is a group).
  const literal = '!'.repeat(bangs) + source;
  const basenameOnly = !anchored && !source.includes('/');
  const test = (candidate: string): boolean => candidate !== '' && (candidate === literal || negated !== run(candidate));
  return {
    pattern: source,
    basenameOnly,
    matches: basenameOnly ? (relPath) => test(relPath.slice(relPath.lastIndexOf('/') + 1)) : test,
  };
}

