/**
 * True under Node (vitest's `node` project), false in the browser (the `chromium` project, vitest
 * browser mode). Tests that need Node inside a file that also runs in Chromium use
 * `it.skipIf(!isNode)` with a comment saying what Node-only thing they need.
 */
export const isNode: boolean =
  typeof (globalThis as { document?: unknown }).document === 'undefined' &&
  typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';
