// The search index bench's large tree: 100,000 files and at least 1 GB, made from this project's
// installed packages (node_modules) copied several times with variations, so no two files are the
// same bytes and the trigram index sees realistic, not repeated, text.
//
// How: the packages' regular files (no symlinks) are taken in path order, leaving out ignore files
// (`.gitignore`, `.ignore`, `.rgignore`: the tree is searched with and without ignore rules alike),
// files over 4 MiB, and files whose binary-ness toolhost and ripgrep would judge differently (a NUL
// past the first 8 KiB, or bytes that are not UTF-8 without a NUL), so the counts can be checked
// against `rg`'s. Copy k (k = 0, 1, ...) of each file goes to `v<k>/<its path>` with every
// `node_modules` folder renamed `deps` (the walk skips node_modules by design), so the tree keeps the
// packages' own folder depth. Copy 0 is the file as it is; in copy k > 0 of a text file, every
// identifier of 6 or more letters whose hash picks it for this copy gets the suffix `K<k>` (about one
// identifier name in three), and the first line gets a comment naming the copy; a binary file gets
// its copy number appended. Copies are made until the tree holds 100,000 files and 1 GB (more copies
// of the smaller files when the bytes fall short).
//
// The tree is built once under the system's temporary directory (`toolhost-bench-100k`) and reused
// by later runs while its manifest (file count, bytes, the recipe's version and the packages' lock
// hash) matches.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isUtf8 } from 'node:buffer';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Files the large tree holds. */
export const LARGE_FILES = 100_000;
/** Bytes it holds at least. */
export const LARGE_MIN_BYTES = 1_000_000_000;
const RECIPE = 3;
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
const IGNORE_FILES = new Set(['.gitignore', '.ignore', '.rgignore']);

/** The source files: `{ rel, size }` under node_modules, path order, filtered as the header says. */
function sourceFiles() {
  const modules = join(repo, 'node_modules');
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stats = lstatSync(path);
      if (stats.isDirectory()) {
        if (name !== '.git' && name !== '.bin' && name !== '.cache') walk(path);
      } else if (stats.isFile() && !IGNORE_FILES.has(name) && stats.size > 0 && stats.size <= MAX_SOURCE_BYTES) {
        const bytes = readFileSync(path);
        const nul = bytes.indexOf(0);
        const binary = nul !== -1 && nul < 8192;
        if (!binary && (nul !== -1 || !isUtf8(bytes))) continue;
        out.push({ rel: relative(modules, path), size: stats.size, binary });
      }
    }
  };
  walk(modules);
  return out;
}

/** Where copy `k` of `rel` goes: under `v<k>/`, node_modules folders renamed deps. */
function targetOf(k, rel) {
  return join(`v${k}`, rel.split('/').map((part) => (part === 'node_modules' ? 'deps' : part)).join('/'));
}

function pick(word, k) {
  let h = 2166136261;
  for (let i = 0; i < word.length; i += 1) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return ((h >>> 0) % 3) === k % 3;
}

/** Copy `k` of a file's bytes (see the header). */
function variant(bytes, k, binary) {
  if (k === 0) return bytes;
  if (binary) return Buffer.concat([bytes, Buffer.from(`copy ${k}`)]);
  const text = bytes.toString('utf8');
  const renamed = text.replace(/\b[A-Za-z]{6,}\b/g, (word) => (pick(word, k) ? `${word}K${k}` : word));
  const nl = renamed.indexOf('\n');
  // After the first line (a shebang or a 'use strict' stays first), a comment naming the copy.
  const at = nl === -1 ? renamed.length : nl + 1;
  return Buffer.from(`${renamed.slice(0, at)}${at === renamed.length && nl === -1 ? '\n' : ''}/* bench copy ${k} */\n${renamed.slice(at)}`);
}

/** Which copies of which source files make the tree: a list of `[k, sourceIndex]`. */
function plan(sources) {
  const total = sources.reduce((sum, file) => sum + file.size, 0);
  const copies = Math.ceil(LARGE_FILES / sources.length);
  // Whole copies of every file while both counts allow, then the rest from the smallest files up if
  // bytes would fall short, else in path order.
  const wanted = [];
  const full = Math.floor(LARGE_FILES / sources.length);
  for (let k = 0; k < full; k += 1) for (let i = 0; i < sources.length; i += 1) wanted.push([k, i]);
  const left = LARGE_FILES - wanted.length;
  const bytesSoFar = total * full;
  const order = sources.map((_, i) => i);
  if (bytesSoFar + (total * left) / sources.length < LARGE_MIN_BYTES) order.sort((a, b) => sources[b].size - sources[a].size);
  for (let j = 0; j < left; j += 1) wanted.push([full, order[j]]);
  return { wanted, copies };
}

/**
 * The large tree, built under `os.tmpdir()/toolhost-bench-100k` unless one matching its manifest is
 * there: `{ dir, files, bytes, note, built }` (`built`: made by this call, with how long it took).
 */
export function largeSearchTree() {
  const base = join(tmpdir(), 'toolhost-bench-100k');
  const dir = join(base, 'tree');
  const manifestPath = join(base, 'manifest.json');
  const lock = createHash('sha256').update(readFileSync(join(repo, 'package-lock.json'))).digest('hex').slice(0, 16);
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.recipe === RECIPE && manifest.lock === lock && manifest.files === LARGE_FILES && manifest.bytes >= LARGE_MIN_BYTES) return { ...manifest, dir, built: undefined };
  }
  const started = performance.now();
  rmSync(base, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sources = sourceFiles();
  const { wanted } = plan(sources);
  const modules = join(repo, 'node_modules');
  let bytes = 0;
  let binaries = 0;
  const made = new Set();
  for (const [k, i] of wanted) {
    const source = sources[i];
    const target = join(dir, targetOf(k, source.rel));
    const parent = dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    const data = variant(readFileSync(join(modules, source.rel)), k, source.binary);
    writeFileSync(target, data);
    bytes += data.length;
    if (source.binary) binaries += 1;
  }
  const perCopy = new Map();
  for (const [k] of wanted) perCopy.set(k, (perCopy.get(k) ?? 0) + 1);
  const full = [...perCopy.values()].filter((n) => n === sources.length).length;
  const extra = wanted.length - full * sources.length;
  const manifest = {
    recipe: RECIPE,
    lock,
    files: wanted.length,
    bytes,
    dirs: made.size,
    note: `${wanted.length} files (${binaries} binary), ${(bytes / 1e9).toFixed(2)} GB in ${made.size} folders: ${sources.length} files of node_modules copied ${full} times over plus ${extra} more copies of the largest, with identifiers renamed per copy`,
  };
  if (bytes < LARGE_MIN_BYTES) throw new Error(`the large tree came to ${bytes} bytes, under ${LARGE_MIN_BYTES}: too few installed packages`);
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return { ...manifest, dir, built: performance.now() - started };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tree = largeSearchTree();
  console.log(JSON.stringify(tree));
}
