/** Loads re2js, the linear-time regex engine grep_search uses for patterns V8 could backtrack on. */
export function loadRe2js(): Promise<typeof import('re2js')>;
/** Loads the ignore library, which applies a workspace's .gitignore rules. */
export function loadIgnore(): Promise<{ default: typeof import('ignore') }>;
/** Loads the diff library's patch module, for the unified diff edit_file answers with. */
export function loadDiff(): Promise<typeof import('diff/lib/patch/create.js')>;
/** Loads @noble/hashes' SHA-2 module, which fingerprints files where WebCrypto is missing (a page over plain http). */
export function loadSha256(): Promise<typeof import('@noble/hashes/sha2.js')>;
// The loaders of toolhost's own modules (built from src/ into files beside this one) are generic:
// this directory imports nothing of src/, types included, so the caller names the module's type
// (`loadEditHint<typeof import('./edit/hint.js')>`), as the code that imports it knows it.
/** Loads edit_file's no_match hint module (src/tools/edit/hint.ts, built into one file); `Module` is its type. */
export function loadEditHint<Module>(): Promise<Module>;
/** Loads ajv's validator classes (`Ajv` for draft-07, `Ajv2019`, `Ajv2020`), for runtime JSON Schema compiles. */
export function loadAjv(): Promise<{ Ajv: typeof import('ajv').Ajv; Ajv2019: typeof import('ajv/dist/2019.js').Ajv2019; Ajv2020: typeof import('ajv/dist/2020.js').Ajv2020 }>;
/** Loads web_fetch's HTML → Markdown converter (src/tools/web-fetch/html.ts, built into one file with its libraries); `Module` is its type. */
export function loadHtmlConverter<Module>(): Promise<Module>;
/** Loads web_fetch's HTML structure check (src/tools/web-fetch/html-check.ts, built into one file with the parser); `Module` is its type. */
export function loadHtmlCheck<Module>(): Promise<Module>;
/** The tasks {@link OffThread} runs, with their input and value. */
export interface OffThreadTasks {
  /** web_fetch's `htmlToMarkdown(html, options)` (src/tools/web-fetch/html.ts). */
  html: { input: { html: string; options: { deadline?: number; maxDepth?: number; maxNodes?: number; checked?: boolean } }; value: string };
  /** The diff library's `structuredPatch(path, path, before, after, '', '', options)`; null where it gave up (its timeout). */
  diff: { input: { path: string; before: string; after: string; options: { context: number; timeout: number } }; value: import('diff').StructuredPatch | null };
  /** edit_file's `noMatchHint(fileLf, needleLf, fileHasBom)` (src/tools/edit/hint.ts). */
  hint: { input: { fileLf: string; needleLf: string; fileHasBom: boolean }; value: { hint: string; line?: number } };
}
/** Worker threads for the CPU-heavy work of a call, so the calling thread's event loop stays free. */
export interface OffThread {
  /**
   * Runs `task` on `input` in a thread. Rejects with `signal.reason` when `signal` aborts (the thread is
   * terminated at once), else with an object carrying a ToolError `code` and `message` (`toToolError`
   * rebuilds it): the task's own error, `too_large` when the thread ran out of memory (named by `what`),
   * `unavailable` when it could not start or died.
   */
  run<K extends keyof OffThreadTasks>(task: K, input: OffThreadTasks[K]['input'], options?: { signal?: AbortSignal; what?: string }): Promise<OffThreadTasks[K]['value']>;
  /** Threads running or idle. */
  readonly threads: number;
  /** Threads running a task now. */
  readonly busy: number;
}
/** The process's worker threads (on Node: at most 2, 512 MiB heap each, started on first use); undefined in browsers and where threads are missing. */
export function offThread(): OffThread | undefined;
/** Loads the search pattern parser (src/search/dialect-parse.ts, built into one file); `Module` is its type. */
export function loadRegexParser<Module>(): Promise<Module>;
/** The search pattern parser when it is there without loading: on Node, never in browsers. */
export function regexParserNow<Module>(): Module | undefined;
/** Loads the glob compiler (src/search/glob-compile.ts, built into one file); `Module` is its type. */
export function loadGlobCompiler<Module>(): Promise<Module>;
/** The glob compiler when it is there without loading: on Node, never in browsers. */
export function globCompilerNow<Module>(): Module | undefined;
/** A runtime's native byte helpers (see {@link nativeBytes}). */
export interface NativeBytes {
  /** `haystack.indexOf(needle, from)` on bytes (`needle` a byte string or one byte), -1 when absent; `from` at least 0. */
  indexOf(haystack: Uint8Array, needle: Uint8Array | number, from: number): number;
  /** Whether `bytes` is well-formed UTF-8. */
  isUtf8(bytes: Uint8Array): boolean;
}
/** Native byte search and UTF-8 check for the in-memory search source: Node's (20.16+), never in browsers. */
export function nativeBytes(): NativeBytes | undefined;
