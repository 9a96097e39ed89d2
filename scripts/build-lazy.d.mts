/** The libraries loaded on demand: the specifier lazy/node.js imports, the file lazy/browser.js loads by URL. */
export const LAZY_LIBRARIES: ReadonlyArray<{ specifier: string; file: string }>;
/** The generated file of a library of LAZY_LIBRARIES, by its file name (`'re2js.min.js'`). */
export function lazyFile(file: string): string;
/** Builds every lazy/*.min.js from the installed libraries. */
export function buildLazyBundles(): Promise<void>;
/** Builds each lazy/*.min.js unless it is there and newer than the installed package it is built from. */
export function ensureLazyBundles(): Promise<void>;
