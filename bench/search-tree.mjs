// Builds the search benchmark's tree: npm's package plus this project's own node_modules, copied to a
// temporary directory with every `node_modules` directory renamed `deps` (the walker skips
// node_modules by design) and symlinks left out (neither toolhost nor rg follows them).
// The targets were set on such a tree of 5,709 files (133 MB); this project's dependencies have grown
// since (about 20,000 files), so the tree takes npm's package whole, then the installed packages in
// name order, leaving out any package that would take the total past FILE_BUDGET files. That keeps
// the tree the size the targets were set on, built the same way on every machine.
import { execSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

function renameNodeModules(path) {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let child = join(path, entry.name);
    if (entry.name === 'node_modules') {
      const renamed = join(path, 'deps');
      renameSync(child, renamed);
      child = renamed;
    }
    renameNodeModules(child);
  }
}

/** Files the tree holds at most (the size of the tree the search targets were set on). */
export const FILE_BUDGET = 5_700;

/** Regular files under `path`, symlinks not followed (as the copy leaves them out). */
function countFiles(path) {
  let n = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory()) n += countFiles(join(path, entry.name));
    else if (entry.isFile()) n += 1;
  }
  return n;
}

/**
 * The folder of npm's own package: under `npm root -g`, else where the `npm` command on PATH really
 * lives (a Node from the npm registry's `node` package put first on PATH has no npm under its prefix).
 */
function npmPackage() {
  const global = join(execSync('npm root -g', { encoding: 'utf8' }).trim(), 'npm');
  if (existsSync(join(global, 'package.json'))) return global;
  let at = realpathSync(execSync('command -v npm', { encoding: 'utf8', shell: '/bin/sh' }).trim());
  while (dirname(at) !== at) {
    at = dirname(at);
    const manifest = join(at, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'npm') return at;
  }
  throw new Error(`npm's package not found at ${global} nor beside the npm command on PATH`);
}

/** Copies the tree; returns `{ base, dir, files, bytes }` (`dir` = base/tree). */
export function buildSearchTree() {
  const npmRoot = npmPackage();
  const base = mkdtempSync(join(tmpdir(), 'toolhost-search-bench-'));
  const dir = join(base, 'tree');
  mkdirSync(dir);
  const noLinks = (src) => !lstatSync(src).isSymbolicLink();
  cpSync(npmRoot, join(dir, 'npm'), { recursive: true, filter: noLinks });
  let budget = FILE_BUDGET - countFiles(join(dir, 'npm'));
  const modules = join(repo, 'node_modules');
  const packages = [];
  for (const name of readdirSync(modules).sort()) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) for (const scoped of readdirSync(join(modules, name)).sort()) packages.push(join(name, scoped));
    else packages.push(name);
  }
  for (const name of packages) {
    const src = join(modules, name);
    if (lstatSync(src).isSymbolicLink()) continue;
    const files = countFiles(src);
    if (files > budget) continue;
    cpSync(src, join(dir, 'deps', name), { recursive: true, filter: noLinks });
    budget -= files;
  }
  renameNodeModules(dir);
  let files = 0;
  let bytes = 0;
  const count = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) count(child);
      else if (entry.isFile()) {
        files += 1;
        bytes += statSync(child).size;
      }
    }
  };
  count(dir);
  return { base, dir, files, bytes };
}

/** Every file of the tree as `{ relativePath: bytes }` (for a memory platform). */
export function readTree(dir) {
  const out = {};
  const collect = (path) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) collect(child);
      else if (entry.isFile()) {
        const data = readFileSync(child);
        out[relative(dir, child)] = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      }
    }
  };
  collect(dir);
  return out;
}

/** The total of `rg --count` output (`path:N` lines, or `N` alone for one file). */
export function rgCount(stdout) {
  return stdout.split('\n').filter(Boolean).reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(':') + 1)), 0);
}
