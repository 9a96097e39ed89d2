// The random workspaces and searches of the search index's differential tests (memory platform,
// Node folder, Chromium): random text of a few lines (BOMs, every line break, binary bytes), random
// changes through the tools and straight through the platform's fs, and random grep_search arguments.
import type { ToolRunner } from '../../src/core/runner.js';
import type { Platform } from '../../src/core/types.js';
import { walkWorkspace } from '../../src/search/walk.js';
import { compileSearchPattern } from '../../src/search/dialect.js';
import { siftWithIndex, worthSifting } from '../../src/search/index/sift.js';
import { searchIndexOf } from '../../src/search/index/workspace.js';
import { searchSourceOf } from '../../src/search/engine-source.js';

export const TOKENS = [
  'alpha', 'Alpha', 'ALPHA', 'beta', 'gamma_ray', 'foo', 'bar', 'foobar', 'Straße', 'STRASSE', 'straẞe', 'ſtop', 'stop', 'K', 'k',
  'Kelvin', '\u212aelvin', 'привет', 'ПРИВЕТ', 'Привет', 'σς', 'Σ', 'x1', 'x12', '42px', '7px', 'é', 'e\u0301', '中文', '😀', 'fn(',
  'a.b', 'a+b', '\t', ' ', 'zz', 'ta gam', 'İi', 'ı',
];
const BREAKS = ['\n', '\n', '\n', '\r\n', '\r'];
export const PATTERNS: Array<[string, boolean?]> = [
  ['alpha'], ['foo|bar'], ['foo(bar)?'], ['gamma_\\w+'], ['Straße'], ['strasse'], ['ſtop'], ['stop'], ['kelvin'], ['k'], ['привет'],
  ['σ'], ['\\d+px'], ['[0-9]{2}px'], ['x1\\b'], ['\\bx1'], ['a\\.b'], ['a.b'], ['fn\\('], ['^alpha'], ['alpha$'], ['中文'], ['😀'],
  ['e\\u0301'], ['é'], ['(?i)ALPHA beta'], ['beta\\s+gamma'], ['zz|alpha'], ['\\w+'], ['ta gam'], ['oba'], ['a\\nb'], ['(?-u)alpha'],
  ['[ſs]top'], ['p[rР]ивет'], ['a.b', true], ['fn(', true], ['Straße', true], ['ПРИВЕТ', true], ['x12 ', true], ['lpha\tb', true],
  ['(foo|zz)(bar|x1)'], ['İ'], ['ı'], ['(?i)i'], ['a{2}lpha'], ['(al|be)(ph|t)a'],
];
export const DIRS = ['', 'src/', 'src/deep/', 'docs/', 'lib/'];

/** Random text of a few lines, sometimes with a BOM; or binary bytes (a NUL, or not UTF-8). */
export function content(rand: () => number): string | Uint8Array {
  const roll = rand();
  if (roll < 0.04) return new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0, 0x62]);
  if (roll < 0.07) return new Uint8Array([0x61, 0x6c, 0x70, 0x68, 0x61, 0xff, 0x0a]);
  if (roll < 0.09) return '';
  let text = rand() < 0.05 ? '\ufeff' : '';
  const lines = 1 + Math.floor(rand() * 6);
  for (let i = 0; i < lines; i += 1) {
    const words = Math.floor(rand() * 7);
    for (let j = 0; j < words; j += 1) text += (j > 0 && rand() < 0.7 ? ' ' : '') + (TOKENS[Math.floor(rand() * TOKENS.length)] as string);
    if (i < lines - 1 || rand() < 0.8) text += BREAKS[Math.floor(rand() * BREAKS.length)] as string;
  }
  return text;
}

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

export async function listFiles(platform: Platform): Promise<string[]> {
  return (await walkWorkspace({ fs: platform.fs, root: platform.root, dir: platform.root, includeIgnored: true })).files.map((f) => f.path);
}

/** One random change: through a tool (`runner`) or the fs directly. */
export async function mutate(rand: () => number, platform: Platform, runner: ToolRunner): Promise<void> {
  const files = await listFiles(platform);
  const roll = rand();
  const newPath = `${platform.root}/${pick(rand, DIRS)}f${Math.floor(rand() * 40)}.${pick(rand, ['txt', 'ts', 'md'])}`;
  const somePath = files.length > 0 ? pick(rand, files) : newPath;
  const text = (c: string | Uint8Array): string => (typeof c === 'string' ? c : 'plain text');
  try {
    if (roll < 0.25) await runner.execute('create_file', { file_path: rand() < 0.5 ? somePath : newPath, content: text(content(rand)), overwrite: true });
    else if (roll < 0.35) {
      const old = new TextDecoder().decode(await platform.fs.readFile(somePath));
      const token = TOKENS.find((t) => t.trim() !== '' && old.includes(t));
      if (token) await runner.execute('edit_file', { file_path: somePath, old_string: token, new_string: pick(rand, TOKENS), replace_all: true });
    } else if (roll < 0.6) {
      await platform.fs.mkdir(newPath.slice(0, newPath.lastIndexOf('/')), { recursive: true });
      await platform.fs.writeFile(rand() < 0.5 ? somePath : newPath, content(rand));
    } else if (roll < 0.75) {
      // The same size, the same inode: only the racy rule or a moved clock tells it apart.
      const old = await platform.fs.readFile(somePath);
      const fresh = content(rand);
      const bytes = typeof fresh === 'string' ? new TextEncoder().encode(fresh) : fresh;
      const next = new Uint8Array(old.length).fill(0x20);
      next.set(bytes.subarray(0, old.length));
      await platform.fs.writeFile(somePath, next);
    } else if (roll < 0.85) await platform.fs.rm(somePath, { force: true });
    else if (roll < 0.93) {
      await platform.fs.mkdir(newPath.slice(0, newPath.lastIndexOf('/')), { recursive: true });
      await platform.fs.rename(somePath, newPath);
    } else await platform.fs.writeFile(`${platform.root}/.gitignore`, rand() < 0.5 ? 'docs/\n' : '*.md\n!keep.md\n');
  } catch {
    // A refused change (a name taken by a folder, an edit the tool declines) changes nothing: fine.
  }
}

/** Random grep_search arguments: a pattern (now and then a fixed string), an output mode, case, globs, a folder, context. */
export function searchArgs(rand: () => number): Record<string, unknown> {
  const [pattern, literal] = pick(rand, PATTERNS);
  const args: Record<string, unknown> = { pattern, output_mode: pick(rand, ['content', 'count', 'files_with_matches']), case_sensitive: rand() < 0.5 };
  if (literal) args.fixed_strings = true;
  if (rand() < 0.2) args.include = pick(rand, ['*.ts', '**/*.md', 'src/**']);
  if (rand() < 0.1) args.dir_path = pick(rand, ['src', 'docs', 'lib']);
  if (args.output_mode === 'content' && rand() < 0.3) args.context_lines = 1;
  return args;
}


/** grep_search's answer to `args`, or its error's code and message (compared like any answer). */
export async function answer(runner: ToolRunner, args: Record<string, unknown>): Promise<unknown> {
  try {
    return await runner.execute('grep_search', args);
  } catch (error) {
    return { error: (error as { code?: string }).code, message: (error as Error).message };
  }
}

/** How often the index served a differential run: searches it was worth using for, files it let the search skip, files still scanned. */
export interface SiftTotals {
  used: number;
  skipped: number;
  scanned: number;
}

/**
 * Adds to `totals` what the index of `platform` makes of the search `args` over the whole workspace
 * (none for a search in a folder or with globs, or an invalid pattern): a check that the differential
 * runs exercise the index rather than only the scan.
 */
export async function tallySift(platform: Platform, args: Record<string, unknown>, totals: SiftTotals): Promise<void> {
  const index = searchIndexOf(platform);
  if (!index || typeof args.pattern !== 'string' || args.dir_path !== undefined || args.include !== undefined) return;
  try {
    const pattern = compileSearchPattern(args.pattern, { literal: args.fixed_strings === true, caseSensitive: args.case_sensitive as boolean });
    if (worthSifting(index, pattern)) totals.used += 1;
    const listed = (await walkWorkspace({ fs: platform.fs, root: platform.root, dir: platform.root, source: searchSourceOf(platform), changeCount: platform.changeCount })).files;
    const sifted = await siftWithIndex(platform, index, pattern, listed, 64 * 1024 * 1024);
    totals.skipped += sifted.text + sifted.binary;
    totals.scanned += sifted.scan.length;
  } catch {
    // An invalid pattern: both answers are the same error.
  }
}
