/**
 * toolhost/web/shell: `run_command` in the browser through just-bash (an optional peer dependency, a
 * bash interpreter in JavaScript with its own coreutils), on the workspace's own files. Only a worker
 * that imports this entry bundles just-bash.
 *
 * ```ts
 * import { createWebPlatform } from 'toolhost/web';
 * import { justBash } from 'toolhost/web/shell';
 * const platform = createWebPlatform({ workspace: 'my-project', shell: justBash() });
 * ```
 */
import { type BashOptions } from 'just-bash/browser';
import type { WebShell } from './platform.js';
/** Options of {@link justBash}. */
export interface JustBashOptions {
    /** just-bash's execution limits (loop iterations, call depth, command count...); default: its own. */
    executionLimits?: BashOptions['executionLimits'];
    /** Environment variables (default: just-bash's, with `HOME` and `PWD` at the workspace root). */
    env?: Record<string, string>;
}
/**
 * A {@link WebShell} running each `run_command` in a fresh just-bash interpreter on the workspace's
 * files (cwd as the tool resolved it), with just-bash's execution limits, network access off (no
 * `curl`), and no Python or JavaScript. The result has the Node platform's shape: `{ stdout, stderr,
 * exit_code, signal: null, timed_out, truncated }`, each stream keeping its first and last 15,000
 * characters around `… [N characters dropped] …`; a command past `timeout_ms` or aborted stops with
 * `timed_out: true` / `exit_code: null`. Writes outside the workspace fail (`EACCES` inside bash).
 */
export declare function justBash(options?: JustBashOptions): WebShell;
