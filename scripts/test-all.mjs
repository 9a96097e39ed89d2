#!/usr/bin/env node
// `npm test`: the type checks beside the build and the tests, not before them. tsc runs on one core,
// so the three checks (tsconfig.json, tsconfig.core.json, demo/tsconfig.json) run at a lower priority
// while the build (`npm run build`'s script, its tsc emitting without checking: see BUILD_TSC) and then
// `npm run test:unit` use the machine; their output is printed when they end, after the tests' own.
// Exits 1 when any part failed (a check, the build or a test), 0 otherwise.
//
//   node scripts/test-all.mjs
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** tsc arguments for an incremental check whose state is kept under node_modules/.cache as `name`. */
function incremental(name) {
  return ['--incremental', '--tsBuildInfoFile', join(ROOT, 'node_modules', '.cache', 'toolhost-tsc', `${name}.tsbuildinfo`)];
}
/**
 * The type checks of `npm run typecheck`, as tsc arguments, each incremental: tsc keeps what it learnt
 * in node_modules/.cache/toolhost-tsc/ and checks again only what changed since the last run and what
 * depends on it (the same diagnostics; a second run with few changes takes a third of the CPU).
 */
const CHECKS = [
  ['-p', 'tsconfig.json', '--noEmit', ...incremental('main')],
  ['-p', 'tsconfig.core.json', ...incremental('core')],
  ['-p', 'demo/tsconfig.json', '--noEmit', ...incremental('demo')],
];
/** Nice value of the type checks: the tests' deadlines come first. */
const CHECK_PRIORITY = 10;

/**
 * The compile step of `npm run build`'s script. Here it runs with `--noCheck`: it emits the same dist/
 * (byte for byte) without type-checking, about 3 CPU seconds instead of 5 (TypeScript 7). No diagnostic is
 * lost: tsconfig.build.json extends tsconfig.json with the same compiler options and compiles a subset
 * of its files (the sources, not the tests), so the tsconfig.json check above reports every error of
 * those files, the declaration errors included (tsc reports them with `noEmit` when `declaration` is
 * on). What the larger program adds is the tests' own files and the types they import (vitest's Chai
 * and jest namespaces, vite's empty `Worker` and `HTMLLinkElement` interfaces), none of which a source
 * file names. And the build as published still type-checks on its own in every `npm test`:
 * test/package.test.ts packs a fresh checkout, whose prepack runs `npm run build` unchanged.
 */
const BUILD_TSC = 'tsc -p tsconfig.build.json';

/** `npm run build`'s script with its compile step not type-checking ({@link BUILD_TSC}); throws when the script no longer has that step. */
function buildScript() {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const script = scripts?.build;
  if (typeof script !== 'string' || script.split(BUILD_TSC).length !== 2) {
    throw new Error(`scripts/test-all.mjs: package.json's build script no longer runs \`${BUILD_TSC}\` once; update BUILD_TSC to its compile step`);
  }
  return script.replace(BUILD_TSC, `${BUILD_TSC} --noCheck`);
}

/** Free space /dev/shm needs for the tests' temporary files to go there (the run writes up to about 2 GiB at once). */
const SHM_FREE_BYTES = 8 * 1024 ** 3;

/**
 * A fresh folder in memory for the tests' temporary files (their TMPDIR): under /dev/shm on Linux when
 * TMPDIR is not set and /dev/shm has {@link SHM_FREE_BYTES} free; undefined otherwise (the tests use the
 * default). The tests create, list, open and remove hundreds of thousands of files; on a disk file
 * system those calls cost the kernel several times the CPU they cost in memory (on the 2-core machines
 * the suite is measured on, ext4 on a virtual disk: the search-listing-ahead file 33 CPU-s against 10).
 * They are the same system calls and the same semantics either way; `.ci/run` runs the tests once more
 * on Node 22 with the default TMPDIR, on the disk.
 */
function memoryTmpdir() {
  if (process.env.TMPDIR || process.platform !== 'linux') return undefined;
  try {
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (bavail * bsize < SHM_FREE_BYTES) return undefined;
    const dir = mkdtempSync('/dev/shm/toolhost-tests-');
    // As /tmp: anyone may create in it (the tests that run tools as another user make folders there).
    chmodSync(dir, 0o1777);
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Runs `command` with `args` in the repository; resolves with its exit code (1 when it could not
 * start or died of a signal) and, when `capture`, what it printed.
 * @param {string} command
 * @param {string[]} args
 * @param {{ capture?: boolean, priority?: number, shell?: boolean, env?: NodeJS.ProcessEnv }} [options] `env`: the child's whole environment (default: this process's)
 * @returns {Promise<{ code: number, output: string }>}
 */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', ...(options.shell ? { shell: true } : {}), ...(options.env ? { env: options.env } : {}) });
    let output = '';
    if (options.capture) {
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
    }
    if (options.priority !== undefined && child.pid !== undefined) {
      try {
        setPriority(child.pid, options.priority);
      } catch {
        // not permitted here: the check runs at normal priority
      }
    }
    child.once('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.once('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The type checks one after another (one core), each with its output; resolves with the failed ones' names and output. */
async function typecheck() {
  const failures = [];
  for (const args of CHECKS) {
    const { code, output } = await run(process.execPath, [TSC, ...args], { capture: true, priority: CHECK_PRIORITY });
    if (code !== 0) failures.push(`tsc ${args.join(' ')} (exit ${code}):\n${output}`);
  }
  return failures;
}

async function main() {
  const started = Date.now();
  const checking = typecheck();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // As `npm run build` runs it: in a shell, with node_modules/.bin first on the PATH.
  const env = { ...process.env, PATH: [join(ROOT, 'node_modules', '.bin'), process.env.PATH].filter(Boolean).join(delimiter) };
  const script = buildScript();
  console.log(`> ${script}`);
  const build = await run(script, [], { shell: true, env });
  const tmpdir = memoryTmpdir();
  if (tmpdir) console.log(`> the tests' temporary files go in ${tmpdir} (memory; removed at the end)`);
  let tests = { code: 1 };
  try {
    if (build.code === 0) tests = await run(npm, ['run', 'test:unit'], tmpdir ? { env: { ...process.env, TMPDIR: tmpdir } } : {});
  } finally {
    if (tmpdir) rmSync(tmpdir, { recursive: true, force: true });
  }
  const failures = await checking;
  const seconds = Math.round((Date.now() - started) / 1000);
  for (const failure of failures) process.stderr.write(`\n${failure}`);
  const parts = [`build ${build.code === 0 ? 'ok' : 'failed'}`, `type checks ${failures.length === 0 ? 'ok' : `${failures.length} failed`}`];
  if (build.code === 0) parts.push(`tests ${tests.code === 0 ? 'ok' : 'failed'}`);
  console.log(`npm test: ${parts.join(', ')} (${seconds} s)`);
  return build.code === 0 && tests.code === 0 && failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
