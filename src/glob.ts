import type picomatchType from 'picomatch/posix.js';
import { ToolError } from './errors.js';

let picomatch: typeof picomatchType | undefined;

/**
 * Loads the glob engine (picomatch) on first use, so a worker that never searches does not load it.
 * {@link compileGlob} needs it loaded: the tools await this first.
 */
export async function loadGlobEngine(): Promise<void> {
  picomatch ??= (await import('picomatch/posix.js')).default;
}

/** Options of {@link compileGlob}. */
export interface GlobOptions {
  /** Match letter case exactly (default false: `*.TS` finds `a.ts`). */
  caseSensitive?: boolean;
  /** Argument name used in error messages (default `pattern`). */
  argName?: string;
}

/**
 * A compiled glob: `matches(relPath)` tests a path relative to the search directory (POSIX, no
 * leading `/`). `basenameOnly` is true for patterns without `/`, which match the last component only.
 */
export interface GlobMatcher {
  readonly pattern: string;
  readonly basenameOnly: boolean;
  matches(relPath: string): boolean;
}

/**
 * Checks that every `{` has its `}` and every `[` its `]` (picomatch silently treats an unbalanced one
 * as a literal, so `{a,b` would match nothing instead of failing). A backslash escapes the next
 * character; inside `[...]` a `]` right after `[`, `[!` or `[^` is literal (POSIX bracket rules), and
 * `[:alpha:]` classes are allowed. Returns a message for the model, or null when balanced.
 */
export function checkGlobBalance(pattern: string): string | null {
  let braces = 0;
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!' || pattern[j] === '^') j += 1;
      if (pattern[j] === ']') j += 1;
      let closed = false;
      for (; j < pattern.length; j += 1) {
        const d = pattern[j];
        if (d === '\\') {
          j += 1;
        } else if (d === '[' && pattern[j + 1] === ':') {
          const end = pattern.indexOf(':]', j + 2);
          if (end !== -1) j = end + 1;
        } else if (d === ']') {
          closed = true;
          break;
        }
      }
      if (!closed) return `"[" at offset ${i} has no closing "]"; close the bracket or escape it as \\[`;
      i = j;
    } else if (c === ']') {
      return `"]" at offset ${i} has no opening "["; escape it as \\]`;
    } else if (c === '{') {
      braces += 1;
    } else if (c === '}') {
      if (braces === 0) return `"}" at offset ${i} has no opening "{"; escape it as \\}`;
      braces -= 1;
    }
  }
  if (braces > 0) return `${braces} "{" without a closing "}"; close the brace or escape it as \\{`;
  return null;
}

/** Rewrites the POSIX negated class `[!abc]` as `[^abc]` (picomatch reads `[!abc]` as "! or a or b or c"). */
function negateBrackets(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i] as string;
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i += 1;
    } else if (c === '[' && pattern[i + 1] === '!') {
      out += '[^';
      i += 1;
    } else out += c;
  }
  return out;
}

/**
 * Compiles a glob (SPEC §6.4) with picomatch: `*`, `**`, `?`, `[...]`, `{a,b}` (nested too), dot-files
 * matched like any other name. A pattern without `/` matches the basename at any depth (`*.ts`); a
 * pattern with `/` matches the path relative to the search directory (`src/**\/*.test.ts`; a leading
 * `./` or `/` is dropped). Case-insensitive unless `caseSensitive`.
 * Errors: `invalid_pattern` for an empty pattern or an unbalanced brace or bracket. Call
 * {@link loadGlobEngine} once before.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const argName = options.argName ?? 'pattern';
  let source = pattern.trim();
  while (source.startsWith('./')) source = source.slice(2);
  if (source.startsWith('/')) source = source.replace(/^\/+/, '');
  if (source.length === 0) {
    throw new ToolError('invalid_pattern', `${argName} is empty; give a glob such as *.ts or src/**/*.test.ts`);
  }
  const problem = checkGlobBalance(source);
  if (problem) throw new ToolError('invalid_pattern', `${argName} "${pattern}" is not a valid glob: ${problem}`);
  source = negateBrackets(source);
  const basenameOnly = !source.includes('/');
  if (!picomatch) throw new Error('compileGlob: await loadGlobEngine() first');
  let test: (input: string) => boolean;
  try {
    test = picomatch(source, { dot: true, nocase: options.caseSensitive !== true });
  } catch (error) {
    throw new ToolError(
      'invalid_pattern',
      `${argName} "${pattern}" is not a valid glob: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    pattern: source,
    basenameOnly,
    matches: basenameOnly
      ? (relPath) => test(relPath.slice(relPath.lastIndexOf('/') + 1))
      : (relPath) => test(relPath),
  };
}
