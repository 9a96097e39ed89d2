import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
// Code uses, not prose: an import specifier `'node:…'`, a member access on a platform global, or require().
const FORBIDDEN = [
  /['"`]node:/,
  /\b(window|document|process|self)\s*(\?\.|\.|\[)/,
  /\bindexedDB\b/,
  /\bglobalThis\.(process|window|document)\b/,
  /\brequire\s*\(/,
  /\b(Buffer|__dirname)\b/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** Lines of `text` that use a platform-specific API; comments may name these APIs, code may not. */
function platformUses(text: string): string[] {
  const offenders: string[] = [];
  text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .split('\n')
    .forEach((line, i) => {
      if (FORBIDDEN.some((pattern) => pattern.test(line))) offenders.push(`${i + 1}: ${line.trim()}`);
    });
  return offenders;
}

describe('src/', () => {
  it('flags platform APIs in code but not in comments', () => {
    const sample = [
      "import { readFile } from 'node:fs/promises';",
      'const home = process.env.HOME;',
      'const db = indexedDB.open("x");',
      'window.alert(1);',
      "const fs = require('fs');",
      '/** the subset of `node:fs/promises` used; the process group is killed */',
      '// window.alert is not called here',
      "const description = 'runs in its own process group';",
    ].join('\n');
    expect(platformUses(sample).map((l) => Number(l.split(':')[0]))).toEqual([1, 2, 3, 4, 5]);
  });

  it('uses web-standard APIs only: no node:, window, document, indexedDB, process or require', () => {
    const offenders = files(SRC).flatMap((file) => platformUses(readFileSync(file, 'utf8')).map((l) => `${file.slice(SRC.length + 1)}:${l}`));
    expect(offenders).toEqual([]);
  });

  it('never imports from web/ or node/', () => {
    const offenders = files(SRC).filter((file) => /from ['"](\.\.\/)+(web|node)\//.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});

const ROOT = join(import.meta.dirname, '..');
/** Where the repository's own sources and docs live; generated output and dependencies are not scanned. */
const TRACKED = ['src', 'web', 'node', 'bridges', 'test', 'bench', 'demo', 'scripts', 'docs', 'bin', 'README.md', 'package.json', 'vite.config.ts'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'test-results', 'generated']);
const TEXT = /\.(ts|mts|js|mjs|cjs|json|md|html|css|txt)$/;
/** This file: its samples below hold every citation it looks for. */
const SELF = join('test', 'src-scan.test.ts');

function tracked(path: string): string[] {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return [];
  }
  if (!stats.isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (SKIPPED_DIRS.has(name) || name.startsWith('.') ? [] : tracked(join(path, name))));
}

/**
 * Citations of documents the repository does not contain: the design notes the code was written
 * against, their section signs, the team's notes of measured facts, and issue numbers. A public source
 * may be named instead ("as Gemini CLI's replace tool does").
 */
const CITATIONS = [/\bSPEC\b/, /\bSTYLE\b/, /§/, /\bFACTS\.md\b/i, /\bissues? #?\d+\b/i, /\bissue (?:requirement|item)/i];
/**
 * "Seed" naming the design notes (`seed: the SDK's ViewFile`, `the seed's WASM build`, `seed names`,
 * `seed-style`), as opposed to a random seed (`seed: number`, `the same seed gives`) or seeding a
 * workspace with files (`seeds a new workspace`).
 */
const SEED_CITATION =
  /\bthe seeds?\b|\bseeds?['’]s?(?=\s)|\bseeds?:\s+(?!number\b|\{)|\bseed[- ](?:names?|order|style|forms?|built-ins?|examples?|tools?)\b|\bseeds\//i;

/** Lines of `text` that cite a document outside the repository, as `line: text`. */
function citations(text: string): string[] {
  const offenders: string[] = [];
  text.split('\n').forEach((line, i) => {
    if ([...CITATIONS, SEED_CITATION].some((pattern) => pattern.test(line))) offenders.push(`${i + 1}: ${line.trim().slice(0, 160)}`);
  });
  return offenders;
}

describe('the repository', () => {
  it('flags citations of outside documents but not random seeds', () => {
    const sample = [
      '/** Runs tool calls (SPEC §3; seed: the SDK ToolRunner). */',
      'as the seed\'s WASM build does',
      '// measured, see FACTS.md',
      'the fix for issue 11',
      "it('holds the built-ins under their seed names', () => {",
      'function randomRun(seed: number): void {',
      'const next = generator(random(seed));',
      '  t.both(op, `seed ${seed} op #${index}`);',
      'for (const seed of [1, 2, 3]) {',
      '  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;',
      '  return seed % n;',
      '/** A seeded PRNG: the same seed gives the same sequence. */',
      "    seed: { type: 'integer' },",
      'await seed.flush();',
      '  let a = seed >>> 0;',
      "it('seeds files relative to the root', async () => {",
      'const workspace = isNew ? seed : records;',
      '/** A `seed-style` tool, as in seeds/tools.md */',
    ].join('\n');
    expect(citations(sample).map((l) => Number(l.split(':')[0]))).toEqual([1, 2, 3, 4, 5, 18]);
  });

  it('cites no document outside it: no design-note sections, fact sheets or issue numbers', () => {
    const offenders = TRACKED.flatMap((entry) => tracked(join(ROOT, entry)))
      .filter((file) => file !== join(ROOT, SELF))
      .flatMap((file) => citations(readFileSync(file, 'utf8')).map((l) => `${file.slice(ROOT.length + 1)}:${l}`));
    expect(offenders).toEqual([]);
  });
});
