/** The code loaded on demand: a library (`specifier`) or a module of toolhost's own (`source`), built into `file`. */
export const LAZY_MODULES: ReadonlyArray<{ specifier?: string; source?: string; file: string }>;
/** The generated file of an entry of LAZY_MODULES, by its file name (`'re2js.min.js'`). */
export function lazyFile(file: string): string;
/** Builds every lazy/*.min.js from the installed libraries. */
export function buildLazyBundles(): Promise<void>;
/** Builds each lazy/*.min.js unless it is there and newer than the installed package it is built from. */
export function ensureLazyBundles(): Promise<void>;
