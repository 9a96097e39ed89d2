// Builds the search benchmark's tree: this project's own node_modules plus npm's package, copied to a
// temporary directory with every `node_modules` directory renamed `deps` (the walker skips
// node_modules by design) and symlinks left out (neither toolhost nor rg follows them). About 5,700
// files and 130 MB on every machine with this repository installed.
import { execSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
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

/** Copies the tree; returns `{ base, dir, files, bytes }` (`dir` = base/tree). */
export function buildSearchTree() {
  const npmRoot = join(execSync('npm root -g', { encoding: 'utf8' }).trim(), 'npm');
  if (!existsSync(npmRoot)) throw new Error(`npm's package not found at ${npmRoot}`);
  const base = mkdtempSync(join(tmpdir(), 'toolhost-search-bench-'));
  const dir = join(base, 'tree');
  mkdirSync(dir);
  const noLinks = (src) => !lstatSync(src).isSymbolicLink();
  cpSync(join(repo, 'node_modules'), join(dir, 'deps'), { recursive: true, filter: noLinks });
  cpSync(npmRoot, join(dir, 'npm'), { recursive: true, filter: noLinks });
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
