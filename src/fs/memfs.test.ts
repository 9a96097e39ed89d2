import * as nodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom as random } from '../../test/support/random.js';
import { MemoryFs } from './memfs.js';

/*
 * MemoryFs pinned against real node:fs on a temp folder: every operation runs on both, the memory one
 * at path P and node:fs at `<tmp>/<n>` + P, and the outcomes must be equal: the normalised result, or
 * the error's code, syscall, path, dest and message (with the temp prefix taken out).
 *
 * Left out of the comparison, on purpose:
 * - folder sizes, nlink, inode numbers, permission bits and times: these are the host filesystem's
 *   (ext4 gives a folder 4096 bytes and 2 + subfolders links; the umask shapes modes), and MemoryFs
 *   documents its own fixed values;
 * - readdir order: ext4 lists in hash order, MemoryFs in insertion order, so names are compared sorted;
 * - `..` above `/`: the temp folder is not the root, so its `..` leaves it. Those cases are checked
 *   against the real `/` with calls that cannot change anything there, and the random sequence skips
 *   paths whose resolution would climb above the temp folder (and symlinks that would, once made);
 * - `rename` and recursive `rm` of `/` itself, which on the temp folder are an ordinary folder's;
 * - a recursive `rm` whose path passes through the folder it removes (`a/b/..`, or `a/up/a` with `up`
 *   → `..`): Node 20 re-walks that path for every entry it removes, so what it leaves depends on
 *   ext4's readdir order. MemoryFs walks it once; see the `rm` tests;
 * - `realpathSync` is compared with `fs.realpathSync.native` (and so `fs.promises.realpath`), which
 *   resolves `..` physically; Node's JS `fs.realpathSync` applies `..` lexically first.
 */

type RmOptions = { recursive?: boolean; force?: boolean };
type Op =
  | { op: 'readFile'; path: string }
  | { op: 'writeFile'; path: string; data: string | Uint8Array }
  | { op: 'mkdir'; path: string; recursive?: boolean }
  | { op: 'readdir'; path: string; withFileTypes?: boolean }
  | { op: 'stat'; path: string }
  | { op: 'lstat'; path: string }
  | { op: 'exists'; path: string }
  | { op: 'readlink'; path: string }
  | { op: 'symlink'; target: string; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'rm'; path: string; options?: RmOptions }
  | { op: 'unlink'; path: string }
  | { op: 'realpath'; path: string };

type Kind = 'file' | 'dir' | 'symlink' | 'other';
interface KindLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}
interface StatsLike extends KindLike {
  size: number;
}
interface DirentLike extends KindLike {
  name: string;
  parentPath?: string;
}

/** The calls compared, as both `MemoryFs` and (an adapter over) `node:fs` have them. */
interface SyncFs {
  readFileSync(path: string): Uint8Array;
  writeFileSync(path: string, data: Uint8Array | string): void;
  mkdirSync(path: string, options?: { recursive?: boolean }): string | undefined;
  readdirSync(path: string): string[];
  readdirSync(path: string, options: { withFileTypes: true }): DirentLike[];
  statSync(path: string): StatsLike;
  lstatSync(path: string): StatsLike;
  existsSync(path: string): boolean;
  readlinkSync(path: string): string;
  symlinkSync(target: string, path: string): void;
  renameSync(from: string, to: string): void;
  rmSync(path: string, options?: RmOptions): void;
  unlinkSync(path: string): void;
  realpathSync(path: string): string;
}

const nodeSync: SyncFs = {
  readFileSync: (path) => nodeFs.readFileSync(path),
  writeFileSync: (path, data) => nodeFs.writeFileSync(path, data),
  mkdirSync: (path, options) => nodeFs.mkdirSync(path, options),
  readdirSync: ((path: string, options?: { withFileTypes: true }) =>
    options ? nodeFs.readdirSync(path, options) : nodeFs.readdirSync(path)) as SyncFs['readdirSync'],
  statSync: (path) => nodeFs.statSync(path),
  lstatSync: (path) => nodeFs.lstatSync(path),
  existsSync: (path) => nodeFs.existsSync(path),
  readlinkSync: (path) => nodeFs.readlinkSync(path),
  symlinkSync: (target, path) => nodeFs.symlinkSync(target, path),
  renameSync: (from, to) => nodeFs.renameSync(from, to),
  rmSync: (path, options) => nodeFs.rmSync(path, options),
  unlinkSync: (path) => nodeFs.unlinkSync(path),
  // Physical `..`, as realpath(3), fs.promises.realpath and the kernel; see the note at the top.
  realpathSync: (path) => nodeFs.realpathSync.native(path),
};

/** One filesystem under test: `fs` with every path prefixed by `root` ('' for MemoryFs). */
interface Side {
  fs: SyncFs;
  root: string;
}

type Outcome =
  | { ok: unknown }
  | { error: { code: unknown; syscall: unknown; path: unknown; dest: unknown; message: string } };

function kindOf(entry: KindLike): Kind {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** `text` with `side`'s root taken out: node's `<tmp>/a` reads `/a`, and `<tmp>` alone reads `/`. */
function strip(side: Side, text: unknown): unknown {
  if (typeof text !== 'string' || side.root === '') return text;
  if (text === side.root) return '/';
  return text.startsWith(`${side.root}/`) ? text.slice(side.root.length) : text;
}

/** Runs `op` on one side and describes what happened in terms both sides can share. */
function run(side: Side, op: Op): Outcome {
  const { fs, root } = side;
  const at = (path: string): string => root + path;
  try {
    switch (op.op) {
      case 'readFile':
        return { ok: hex(fs.readFileSync(at(op.path))) };
      case 'writeFile':
        return { ok: fs.writeFileSync(at(op.path), op.data) };
      case 'mkdir':
        return { ok: strip(side, fs.mkdirSync(at(op.path), op.recursive === undefined ? undefined : { recursive: op.recursive })) };
      case 'readdir':
        if (!op.withFileTypes) return { ok: fs.readdirSync(at(op.path)).sort() };
        return {
          ok: fs
            .readdirSync(at(op.path), { withFileTypes: true })
            .map((entry) => [entry.name, kindOf(entry), strip(side, entry.parentPath)] as const)
            .sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)),
        };
      case 'stat':
      case 'lstat': {
        const stats = op.op === 'stat' ? fs.statSync(at(op.path)) : fs.lstatSync(at(op.path));
        const kind = kindOf(stats);
        // Folder sizes are the host filesystem's: not compared.
        if (kind === 'dir') return { ok: { kind } };
        let size = stats.size;
        // A symlink's size is its target's length, and node's absolute targets carry the temp prefix.
        if (kind === 'symlink' && root !== '' && fs.readlinkSync(at(op.path)).startsWith(`${root}/`)) size -= root.length;
        return { ok: { kind, size } };
      }
      case 'exists':
        return { ok: fs.existsSync(at(op.path)) };
      case 'readlink':
        return { ok: strip(side, fs.readlinkSync(at(op.path))) };
      case 'symlink':
        return { ok: fs.symlinkSync(op.target.startsWith('/') ? root + op.target : op.target, at(op.path)) };
      case 'rename':
        return { ok: fs.renameSync(at(op.from), at(op.to)) };
      case 'rm':
        return { ok: fs.rmSync(at(op.path), op.options) };
      case 'unlink':
        return { ok: fs.unlinkSync(at(op.path)) };
      case 'realpath':
        return { ok: strip(side, fs.realpathSync(at(op.path))) };
    }
  } catch (caught) {
    const error = caught as NodeJS.ErrnoException & { dest?: string };
    if (typeof error.code !== 'string') throw caught;
    return {
      error: {
        code: error.code,
        syscall: error.syscall,
        path: strip(side, error.path),
        dest: strip(side, error.dest),
        message: root === '' ? error.message : error.message.replaceAll(root, ''),
      },
    };
  }
}

type Tree = { kind: 'file'; data: string } | { kind: 'symlink'; target: unknown } | { kind: 'dir'; entries: Record<string, Tree> } | { kind: Kind };

/** The whole tree below `path` (nothing followed), with names sorted. */
function snapshot(side: Side, path = '/'): Tree {
  const full = side.root + path;
  const kind = kindOf(side.fs.lstatSync(full));
  if (kind === 'file') return { kind, data: hex(side.fs.readFileSync(full)) };
  if (kind === 'symlink') return { kind, target: strip(side, side.fs.readlinkSync(full)) };
  if (kind !== 'dir') return { kind };
  const entries: Record<string, Tree> = {};
  for (const name of side.fs.readdirSync(full).sort()) entries[name] = snapshot(side, path === '/' ? `/${name}` : `${path}/${name}`);
  return { kind, entries };
}

let base = '';
let pairs = 0;

beforeAll(() => {
  base = nodeFs.realpathSync(nodeFs.mkdtempSync(join(tmpdir(), 'memfs-test-')));
});
afterAll(() => {
  if (base) nodeFs.rmSync(base, { recursive: true, force: true });
});

/** A fresh MemoryFs and a fresh empty real folder, driven together. */
class Pair {
  readonly memory: MemoryFs = new MemoryFs();
  readonly mem: Side = { fs: this.memory as unknown as SyncFs, root: '' };
  readonly real: Side;

  constructor() {
    pairs += 1;
    const root = join(base, String(pairs));
    nodeFs.mkdirSync(root);
    this.real = { fs: nodeSync, root };
  }

  /** Runs `op` on both and expects the same outcome; returns it for further expectations. */
  both(op: Op, label = ''): Outcome {
    const real = run(this.real, op);
    const memory = run(this.mem, op);
    // Outcomes are plain data built the same way on both sides, so equal JSON is equal outcomes; toEqual
    // on each of the thousands of operations would be most of this file's time.
    if (JSON.stringify(memory) !== JSON.stringify(real)) expect({ label, op, outcome: memory }).toEqual({ label, op, outcome: real });
    return real;
  }

  /** Runs every op on both, expecting equal outcomes, then equal trees. */
  all(ops: Op[]): Outcome[] {
    const outcomes = ops.map((op, i) => this.both(op, `#${i}`));
    this.same();
    return outcomes;
  }

  same(): void {
    const memory = snapshot(this.mem);
    const real = snapshot(this.real);
    if (JSON.stringify(memory) !== JSON.stringify(real)) expect(memory).toEqual(real);
  }
}

const READ_ONLY = new Set<Op['op']>(['readFile', 'readdir', 'stat', 'lstat', 'exists', 'readlink', 'realpath']);

/** Runs each of `ops` on a pair holding `setup`: a fresh one for each op that can change the tree. */
function each(setup: Op[], ops: Op[]): void {
  const shared = new Pair();
  shared.all(setup);
  for (const op of ops) {
    const t = READ_ONLY.has(op.op) ? shared : new Pair();
    if (t !== shared) for (const step of setup) t.both(step);
    const skip = skipReason(t.real.root, op);
    if (skip !== undefined && RM_SYNC_IS_NATIVE && op.op === 'rm') continue;
    if (skip !== undefined) throw new Error(`${JSON.stringify(op)} ${skip}: not comparable`);
    t.both(op);
    if (t !== shared) t.same();
  }
  shared.same();
}

/**
 * Whether node:fs's rmSync is the C++ one of Node 23 and later, whose errors differ from the rm that
 * MemoryFs follows (Node 22's, still fs.promises.rm's): ENOTDIR on a path through a file is success,
 * EINVAL for `dir/.` has the code '' and errors name the syscall `rm`. There `rm` is compared on Node 22
 * only (.ci/run runs these tests on Node 24 and on Node 22).
 */
const RM_SYNC_IS_NATIVE = Number(process.versions.node.split('.')[0]) > 22;

const ok = (value?: unknown): Outcome => ({ ok: value });
/** Matches a failure by code and syscall (the full error is compared with node's by `both`). */
const fails = (code: string, syscall?: string): unknown => ({ error: expect.objectContaining(syscall ? { code, syscall } : { code }) });

describe('MemoryFs against node:fs', () => {
  it('reads back what it writes, strings as UTF-8 and bytes as given', () => {
    const t = new Pair();
    t.both({ op: 'writeFile', path: '/s', data: 'héllo ✓' });
    expect(t.both({ op: 'readFile', path: '/s' })).toEqual(ok(hex(new TextEncoder().encode('héllo ✓'))));
    t.both({ op: 'writeFile', path: '/b', data: new Uint8Array([0, 255, 10, 13]) });
    expect(t.both({ op: 'readFile', path: '/b' })).toEqual(ok('00ff0a0d'));
    t.both({ op: 'writeFile', path: '/b', data: '' });
    expect(t.both({ op: 'stat', path: '/b' })).toEqual(ok({ kind: 'file', size: 0 }));
    t.both({ op: 'writeFile', path: '/b', data: new Uint8Array(new ArrayBuffer(8), 2, 3) });
    expect(t.both({ op: 'readFile', path: '/b' })).toEqual(ok('000000'));
    t.same();
  });

  it('reports read and write errors as node does', () => {
    const t = new Pair();
    t.all([
      { op: 'mkdir', path: '/d' },
      { op: 'writeFile', path: '/f', data: 'x' },
    ]);
    expect(t.both({ op: 'readFile', path: '/missing' })).toEqual(fails('ENOENT', 'open'));
    expect(t.both({ op: 'readFile', path: '/d' })).toEqual(fails('EISDIR', 'read'));
    expect(t.both({ op: 'readFile', path: '/d/' })).toEqual(fails('EISDIR', 'read'));
    expect(t.both({ op: 'readFile', path: '/f/' })).toEqual(fails('ENOTDIR', 'open'));
    expect(t.both({ op: 'readFile', path: '/f/x' })).toEqual(fails('ENOTDIR', 'open'));
    expect(t.both({ op: 'readFile', path: '/f/.' })).toEqual(fails('ENOTDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/missing/x', data: 'x' })).toEqual(fails('ENOENT', 'open'));
    expect(t.both({ op: 'writeFile', path: '/f/x', data: 'x' })).toEqual(fails('ENOTDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/d', data: 'x' })).toEqual(fails('EISDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/d/.', data: 'x' })).toEqual(fails('EISDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/d/..', data: 'x' })).toEqual(fails('EISDIR', 'open'));
    // A trailing slash asks for a folder, and creating open(2) refuses it whatever is there.
    expect(t.both({ op: 'writeFile', path: '/f/', data: 'x' })).toEqual(fails('EISDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/new/', data: 'x' })).toEqual(fails('EISDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/d/', data: new Uint8Array(1) })).toEqual(fails('EISDIR', 'open'));
    expect(t.both({ op: 'writeFile', path: '/missing/new/', data: 'x' })).toEqual(fails('ENOENT', 'open'));
    t.same();
  });

  it('resolves paths with `.`, repeated slashes and trailing slashes as Linux does', () => {
    const t = new Pair();
    t.all([
      { op: 'mkdir', path: '/a' },
      { op: 'mkdir', path: '/a//b/' },
      { op: 'writeFile', path: '/a/./b/f', data: 'x' },
      { op: 'stat', path: '/a/b/./f' },
      { op: 'stat', path: '//a///b//f' },
      { op: 'stat', path: '/a/b/' },
      { op: 'stat', path: '/a/b/.' },
      { op: 'stat', path: '/a/b/f/' },
      { op: 'stat', path: '/a/b/f/.' },
      { op: 'stat', path: '/a/b/f/..' },
      { op: 'lstat', path: '/a/b/f/' },
      { op: 'stat', path: '/a/missing/' },
      { op: 'exists', path: '/a/b/f/' },
      { op: 'exists', path: '/a/b/f' },
      { op: 'exists', path: '/a/b/./' },
      { op: 'realpath', path: '/a/./b//f' },
      { op: 'realpath', path: '/a/b/f/' },
      { op: 'realpath', path: '/a/b/..' },
      { op: 'realpath', path: '/' },
      { op: 'readdir', path: '/a/b/.' },
      { op: 'readdir', path: '/a/b/f' },
      { op: 'readdir', path: '/a/b/f/' },
      { op: 'readdir', path: '/a/missing' },
      { op: 'readdir', path: '/a//b/', withFileTypes: true },
      { op: 'readdir', path: '/', withFileTypes: true },
    ]);
  });

  it('reports a missing parent, a file as an intermediate component and a trailing slash on a file', () => {
    const setup: Op[] = [
      { op: 'writeFile', path: '/f', data: 'x' },
      { op: 'mkdir', path: '/d' },
    ];
    for (const path of ['/missing/x', '/missing/', '/f/x', '/f/x/y', '/f/', '/f/.', '/f/..', '/d/x/', '/d/./x/../']) {
      const ops: Op[] = [
        ...(['stat', 'lstat', 'readlink', 'realpath', 'readdir', 'exists', 'unlink', 'readFile'] as const).map((op) => ({ op, path })),
        { op: 'mkdir', path },
        { op: 'mkdir', path, recursive: true },
        { op: 'writeFile', path, data: 'x' },
        { op: 'symlink', target: 'f', path },
        { op: 'rename', from: path, to: '/z' },
        { op: 'rename', from: '/f', to: path },
        { op: 'rename', from: '/d', to: path },
        { op: 'rm', path },
        { op: 'rm', path, options: { force: true } },
        { op: 'rm', path, options: { recursive: true } },
        { op: 'rm', path, options: { recursive: true, force: true } },
      ];
      each(setup, ops);
    }
  });

  it('resolves `..` physically, after following a symlink to a folder elsewhere', () => {
    const t = new Pair();
    t.all([
      { op: 'mkdir', path: '/far/away', recursive: true },
      { op: 'writeFile', path: '/far/here', data: 'far' },
      { op: 'writeFile', path: '/here', data: 'top' },
      { op: 'mkdir', path: '/near' },
      { op: 'symlink', target: '../far/away', path: '/near/link' },
      { op: 'symlink', target: '/far/away', path: '/abs' },
    ]);
    expect(t.both({ op: 'readFile', path: '/near/link/../here' })).toEqual(ok(hex(new TextEncoder().encode('far'))));
    expect(t.both({ op: 'readFile', path: '/abs/../here' })).toEqual(ok(hex(new TextEncoder().encode('far'))));
    expect(t.both({ op: 'realpath', path: '/near/link/..' })).toEqual(ok('/far'));
    expect(t.both({ op: 'realpath', path: '/near/link' })).toEqual(ok('/far/away'));
    t.both({ op: 'readdir', path: '/near/link/..' });
    t.both({ op: 'writeFile', path: '/near/link/../new', data: 'n' });
    t.both({ op: 'mkdir', path: '/near/link/../made' });
    t.both({ op: 'mkdir', path: '/near/link/../p/q', recursive: true });
    t.both({ op: 'symlink', target: 'x', path: '/abs/../sym' });
    t.both({ op: 'rename', from: '/near/link/../here', to: '/abs/../../moved' });
    t.both({ op: 'unlink', path: '/abs/../new' });
    t.both({ op: 'rm', path: '/abs/../made', options: { recursive: true } });
    t.same();
  });

  it('keeps `..` at `/` on `/`, as Linux does at the real root', () => {
    // Checked against the real `/` where that cannot change anything: `..` of the root is the root.
    expect(nodeFs.realpathSync.native('/../..')).toBe('/');
    expect(nodeFs.statSync('/..').ino).toBe(nodeFs.statSync('/').ino);
    const memory = new MemoryFs();
    memory.mkdirSync('/a/b', { recursive: true });
    memory.writeFileSync('/../../a/f', 'x');
    memory.symlinkSync('../../../a', '/a/b/up');
    expect(memory.realpathSync('/../a/./..')).toBe('/');
    expect(memory.realpathSync('/a/b/up/f')).toBe('/a/f');
    expect(memory.readdirSync('/..')).toEqual(['a']);
    expect(memory.statSync('/../a/../..').isDirectory()).toBe(true);
    expect(new TextDecoder().decode(memory.readFileSync('/a/../../a/f'))).toBe('x');
    expect(memory.mkdirSync('/../../c/d', { recursive: true })).toBe('/../../c');
    expect(memory.existsSync('/c/d')).toBe(true);
    memory.renameSync('/../c', '/../e');
    expect(memory.readdirSync('/').sort()).toEqual(['a', 'e']);
  });

  it('refuses to change `/`, `.` and `..` as Linux does at the real root', () => {
    // Each call here fails in the kernel before it could touch anything, so it is safe on the real root.
    const real: Side = { fs: nodeSync, root: '' };
    const memory = new MemoryFs();
    memory.mkdirSync('/tmp');
    const mem: Side = { fs: memory as unknown as SyncFs, root: '' };
    const ops: Op[] = [
      { op: 'mkdir', path: '/' },
      { op: 'mkdir', path: '/..' },
      { op: 'mkdir', path: '/.' },
      { op: 'mkdir', path: '/', recursive: true },
      { op: 'mkdir', path: '/tmp/..' },
      { op: 'writeFile', path: '/', data: 'x' },
      { op: 'writeFile', path: '/..', data: 'x' },
      { op: 'symlink', target: 'x', path: '/' },
      { op: 'symlink', target: 'x', path: '/..' },
      { op: 'symlink', target: 'x', path: '/tmp/.' },
      { op: 'unlink', path: '/' },
      { op: 'unlink', path: '/..' },
      { op: 'unlink', path: '/tmp/.' },
      { op: 'rename', from: '/', to: '/tmp/memfs-never' },
      { op: 'rename', from: '/..', to: '/tmp/memfs-never' },
      { op: 'rename', from: '/tmp/.', to: '/tmp/memfs-never' },
      { op: 'rename', from: '/tmp/..', to: '/tmp/memfs-never' },
      { op: 'rm', path: '/' },
      { op: 'rm', path: '/..', options: { force: true } },
      { op: 'readFile', path: '/' },
      { op: 'readlink', path: '/' },
      { op: 'readlink', path: '/..' },
    ];
    for (const op of ops) expect({ op, outcome: run(mem, op) }).toEqual({ op, outcome: run(real, op) });
    // Not run on the real root: a recursive rm fails there too (rmdir(2) of `/` is EBUSY), but no test
    // should ever call it.
    expect(run(mem, { op: 'rm', path: '/', options: { recursive: true } })).toEqual(fails('EBUSY', 'rmdir'));
    expect(run(mem, { op: 'rm', path: '/tmp/.', options: { recursive: true, force: true } })).toEqual(fails('EINVAL', 'rmdir'));
    expect(memory.readdirSync('/')).toEqual(['tmp']);
  });

  it('follows symlinks in intermediate and last components, and stops after 40 with ELOOP', () => {
    const t = new Pair();
    const ops: Op[] = [{ op: 'mkdir', path: '/d' }, { op: 'writeFile', path: '/d/f', data: 'end' }, { op: 'symlink', target: 'd', path: '/l0' }];
    // l1 → l0 → d: `l<n>` takes n + 1 hops to reach d, so l39/f is 40 hops and l40/f is 41.
    for (let n = 1; n <= 41; n += 1) ops.push({ op: 'symlink', target: n % 2 ? `l${n - 1}` : `/l${n - 1}`, path: `/l${n}` });
    t.all(ops);
    expect(t.both({ op: 'readFile', path: '/l39/f' })).toEqual(ok(hex(new TextEncoder().encode('end'))));
    expect(t.both({ op: 'readFile', path: '/l40/f' })).toEqual(fails('ELOOP', 'open'));
    expect(t.both({ op: 'stat', path: '/l39' })).toEqual(ok({ kind: 'dir' }));
    expect(t.both({ op: 'stat', path: '/l40' })).toEqual(fails('ELOOP', 'stat'));
    expect(t.both({ op: 'lstat', path: '/l40' })).toEqual(ok({ kind: 'symlink', size: 4 }));
    for (const path of ['/l38/f', '/l39/f', '/l40/f', '/l39', '/l40', '/l40/', '/l41/x/y']) {
      for (const op of ['stat', 'lstat', 'readlink', 'realpath', 'readdir', 'exists', 'readFile'] as const) t.both({ op, path });
    }
    t.same();
    each(
      ops,
      ['/l39', '/l40', '/l40/', '/l39/new', '/l40/new', '/l39/f', '/l40/f'].flatMap((path): Op[] => [
        { op: 'mkdir', path, recursive: true },
        { op: 'mkdir', path },
        { op: 'writeFile', path, data: 'w' },
        { op: 'symlink', target: 'x', path },
        { op: 'rename', from: path, to: '/moved' },
        { op: 'rename', from: '/d/f', to: path },
        { op: 'unlink', path },
        { op: 'rm', path, options: { recursive: true } },
      ]),
    );
  });

  it('reports ELOOP for symlink loops and ENOENT through dangling symlinks', () => {
    const setup: Op[] = [
      { op: 'symlink', target: 'self', path: '/self' },
      { op: 'symlink', target: 'pong', path: '/ping' },
      { op: 'symlink', target: '/ping', path: '/pong' },
      { op: 'symlink', target: 'nowhere/file', path: '/dangling' },
      { op: 'symlink', target: 'later', path: '/creates' },
      { op: 'mkdir', path: '/d' },
      { op: 'symlink', target: '.', path: '/d/dot' },
      { op: 'symlink', target: '/made/here', path: '/abs' },
      { op: 'mkdir', path: '/made' },
      { op: 'symlink', target: 'trailing/', path: '/slash' },
      { op: 'symlink', target: 'd/..', path: '/dots' },
    ];
    const paths = ['/self', '/ping', '/self/', '/self/x', '/dangling', '/dangling/', '/dangling/x', '/creates', '/creates/', '/creates/x'];
    each(
      setup,
      [...paths, '/d/dot/dot/dot', '/d/dot/..', '/abs', '/slash', '/dots', '/dots/'].flatMap((path): Op[] => [
        ...(['stat', 'lstat', 'readlink', 'realpath', 'readdir', 'exists', 'readFile', 'unlink'] as const).map((op) => ({ op, path })),
        { op: 'mkdir', path },
        { op: 'mkdir', path, recursive: true },
        { op: 'writeFile', path, data: 'x' },
        { op: 'rename', from: path, to: '/moved' },
        { op: 'rename', from: '/made', to: path },
        // Not for `/d/dot/..`: see 'refuses rm of a path ending in `..`'.
        ...(path.endsWith('..') ? [] : [{ op: 'rm', path, options: { recursive: true } } as const]),
      ]),
    );
    const t = new Pair();
    t.all(setup);
    expect(t.both({ op: 'stat', path: '/self' })).toEqual(fails('ELOOP', 'stat'));
    expect(t.both({ op: 'readFile', path: '/ping' })).toEqual(fails('ELOOP', 'open'));
    expect(t.both({ op: 'writeFile', path: '/ping', data: 'x' })).toEqual(fails('ELOOP', 'open'));
    expect(t.both({ op: 'mkdir', path: '/self/x', recursive: true })).toEqual(fails('ELOOP', 'mkdir'));
    expect(t.both({ op: 'lstat', path: '/self' })).toEqual(ok({ kind: 'symlink', size: 4 }));
    expect(t.both({ op: 'stat', path: '/creates' })).toEqual(fails('ENOENT', 'stat'));
    expect(t.both({ op: 'lstat', path: '/creates' })).toEqual(ok({ kind: 'symlink', size: 5 }));
    expect(t.both({ op: 'exists', path: '/creates' })).toEqual(ok(false));
    // A dangling symlink is no folder to create through, even with recursive.
    expect(t.both({ op: 'mkdir', path: '/creates/x', recursive: true })).toEqual(fails('ENOENT', 'mkdir'));
    expect(t.both({ op: 'mkdir', path: '/creates', recursive: true })).toEqual(fails('ENOENT', 'mkdir'));
    expect(t.both({ op: 'mkdir', path: '/creates' })).toEqual(fails('EEXIST', 'mkdir'));
    // writeFile follows it and creates the target, unless the target's folder is missing.
    expect(t.both({ op: 'writeFile', path: '/dangling', data: 'x' })).toEqual(fails('ENOENT', 'open'));
    expect(t.both({ op: 'writeFile', path: '/creates', data: 'made' })).toEqual(ok());
    expect(t.both({ op: 'lstat', path: '/later' })).toEqual(ok({ kind: 'file', size: 4 }));
    expect(t.both({ op: 'stat', path: '/creates' })).toEqual(ok({ kind: 'file', size: 4 }));
    expect(t.both({ op: 'writeFile', path: '/abs', data: 'abs' })).toEqual(ok());
    expect(t.both({ op: 'readFile', path: '/made/here' })).toEqual(ok(hex(new TextEncoder().encode('abs'))));
    expect(t.both({ op: 'writeFile', path: '/slash', data: 'x' })).toEqual(fails('EISDIR', 'open'));
    expect(t.both({ op: 'symlink', target: '', path: '/empty' })).toEqual(fails('ENOENT', 'symlink'));
    t.same();
  });

  it('creates folders one by one or with recursive', () => {
    const t = new Pair();
    t.all([
      { op: 'mkdir', path: '/a' },
      { op: 'mkdir', path: '/a' },
      { op: 'mkdir', path: '/a/' },
      { op: 'mkdir', path: '/b/c' },
      { op: 'mkdir', path: '/b/c/d', recursive: true },
      { op: 'mkdir', path: '/b/c/d', recursive: true },
      { op: 'mkdir', path: '/b', recursive: true },
      { op: 'mkdir', path: '/n//m/', recursive: true },
      { op: 'mkdir', path: '/p/./q/../r', recursive: true },
      { op: 'writeFile', path: '/f', data: 'x' },
      { op: 'mkdir', path: '/f' },
      { op: 'mkdir', path: '/f', recursive: true },
      { op: 'mkdir', path: '/f/', recursive: true },
      { op: 'mkdir', path: '/f/g', recursive: true },
      { op: 'mkdir', path: '/f/g/h', recursive: true },
      { op: 'symlink', target: 'b/c', path: '/to-c' },
      { op: 'mkdir', path: '/to-c', recursive: true },
      { op: 'mkdir', path: '/to-c' },
      { op: 'mkdir', path: '/to-c/' },
      { op: 'mkdir', path: '/to-c/e/f', recursive: true },
      { op: 'symlink', target: 'f', path: '/to-f' },
      { op: 'mkdir', path: '/to-f', recursive: true },
      { op: 'mkdir', path: '/to-f/x', recursive: true },
      { op: 'mkdir', path: '/a/.' },
      { op: 'mkdir', path: '/a/..' },
      { op: 'mkdir', path: '/a/.', recursive: true },
      { op: 'mkdir', path: '/z/.', recursive: true },
      { op: 'mkdir', path: '/y/..', recursive: true },
      { op: 'mkdir', path: '/to-c/..', recursive: true },
    ]);
    expect(t.both({ op: 'mkdir', path: '/u/v/w', recursive: true })).toEqual(ok('/u'));
    expect(t.both({ op: 'mkdir', path: '/u/v/w', recursive: true })).toEqual(ok(undefined));
    expect(t.both({ op: 'mkdir', path: '/u/v/w/x' })).toEqual(ok(undefined));
    t.same();
  });

  it('lists a folder through a symlink, names or entries with their kinds', () => {
    const t = new Pair();
    t.all([
      { op: 'mkdir', path: '/d/sub', recursive: true },
      { op: 'writeFile', path: '/d/f', data: 'x' },
      { op: 'symlink', target: 'f', path: '/d/lf' },
      { op: 'symlink', target: 'sub', path: '/d/ld' },
      { op: 'symlink', target: 'gone', path: '/d/lg' },
      { op: 'symlink', target: 'd', path: '/ld' },
      { op: 'symlink', target: 'd/f', path: '/lf' },
    ]);
    expect(t.both({ op: 'readdir', path: '/ld' })).toEqual(ok(['f', 'ld', 'lf', 'lg', 'sub']));
    expect(t.both({ op: 'readdir', path: '/ld/', withFileTypes: true })).toEqual(
      ok([
        ['f', 'file', '/ld/'],
        ['ld', 'symlink', '/ld/'],
        ['lf', 'symlink', '/ld/'],
        ['lg', 'symlink', '/ld/'],
        ['sub', 'dir', '/ld/'],
      ]),
    );
    expect(t.both({ op: 'readdir', path: '/lf' })).toEqual(fails('ENOTDIR', 'scandir'));
    t.both({ op: 'readdir', path: '/d/ld', withFileTypes: true });
    t.both({ op: 'readdir', path: '/d/lg' });
    t.both({ op: 'readdir', path: '/d/ld/..', withFileTypes: true });
  });

  it('stats follow symlinks and lstats do not, except with a trailing slash', () => {
    const t = new Pair();
    t.all([
      { op: 'mkdir', path: '/d' },
      { op: 'writeFile', path: '/d/f', data: 'four' },
      { op: 'symlink', target: 'd', path: '/ld' },
      { op: 'symlink', target: 'd/f', path: '/lf' },
      { op: 'symlink', target: '/d/f', path: '/abs' },
    ]);
    expect(t.both({ op: 'stat', path: '/lf' })).toEqual(ok({ kind: 'file', size: 4 }));
    expect(t.both({ op: 'lstat', path: '/lf' })).toEqual(ok({ kind: 'symlink', size: 3 }));
    expect(t.both({ op: 'lstat', path: '/abs' })).toEqual(ok({ kind: 'symlink', size: 4 }));
    expect(t.both({ op: 'lstat', path: '/ld' })).toEqual(ok({ kind: 'symlink', size: 1 }));
    expect(t.both({ op: 'lstat', path: '/ld/' })).toEqual(ok({ kind: 'dir' }));
    expect(t.both({ op: 'lstat', path: '/lf/' })).toEqual(fails('ENOTDIR', 'lstat'));
    expect(t.both({ op: 'readlink', path: '/ld' })).toEqual(ok('d'));
    expect(t.both({ op: 'readlink', path: '/abs' })).toEqual(ok('/d/f'));
    expect(t.both({ op: 'readlink', path: '/ld/' })).toEqual(fails('EINVAL', 'readlink'));
    expect(t.both({ op: 'readlink', path: '/d/f' })).toEqual(fails('EINVAL', 'readlink'));
    expect(t.both({ op: 'readlink', path: '/d' })).toEqual(fails('EINVAL', 'readlink'));
    expect(t.both({ op: 'readlink', path: '/nope' })).toEqual(fails('ENOENT', 'readlink'));
    expect(t.both({ op: 'realpath', path: '/abs' })).toEqual(ok('/d/f'));
    expect(t.both({ op: 'realpath', path: '/ld/f' })).toEqual(ok('/d/f'));
    expect(t.both({ op: 'realpath', path: '/nope' })).toEqual(fails('ENOENT', 'realpath'));
    expect(t.both({ op: 'symlink', target: 'x', path: '/ld' })).toEqual(fails('EEXIST', 'symlink'));
    expect(t.both({ op: 'symlink', target: 'x', path: '/ld/' })).toEqual(fails('EEXIST', 'symlink'));
    expect(t.both({ op: 'symlink', target: 'x', path: '/new/' })).toEqual(fails('ENOENT', 'symlink'));
    expect(t.both({ op: 'symlink', target: 'x', path: '/ld/new' })).toEqual(ok());
    t.same();
  });

  it('renames files, folders and symlinks as rename(2) does', () => {
    const setup: Op[] = [
      { op: 'mkdir', path: '/d/sub', recursive: true },
      { op: 'writeFile', path: '/d/sub/deep', data: 'deep' },
      { op: 'mkdir', path: '/empty' },
      { op: 'mkdir', path: '/full' },
      { op: 'writeFile', path: '/full/x', data: 'x' },
      { op: 'writeFile', path: '/f', data: 'f' },
      { op: 'writeFile', path: '/g', data: 'g' },
      { op: 'symlink', target: 'd', path: '/ld' },
      { op: 'symlink', target: 'f', path: '/lf' },
      { op: 'symlink', target: '/d/sub', path: '/labs' },
    ];
    const cases: Array<[string, string, string]> = [
      ['file over file', '/f', '/g'],
      ['file over folder', '/f', '/empty'],
      ['file over its own name', '/f', '/f'],
      ['file to a new name', '/f', '/d/new'],
      ['file with a trailing slash', '/f/', '/n'],
      ['file to a trailing slash', '/f', '/n/'],
      ['file over its own folder', '/d/sub/deep', '/d'],
      ['folder over an empty folder', '/d', '/empty'],
      ['folder over a non-empty folder', '/d', '/full'],
      ['folder over a file', '/d', '/f'],
      ['folder into its own subtree', '/d', '/d/sub/inner'],
      ['folder into itself', '/d', '/d/inner'],
      ['folder over its own parent', '/d/sub', '/d'],
      ['folder over itself', '/d', '/d'],
      ['folder to itself with slashes', '/d/', '/d/'],
      ['folder with trailing slashes', '/d/', '/moved/'],
      ['folder over an ancestor through a symlink', '/labs', '/d'],
      ['symlink (not followed)', '/ld', '/moved'],
      ['symlink with a trailing slash', '/ld/', '/moved'],
      ['symlink over the folder it names', '/ld', '/d'],
      ['symlink to a file over that file', '/lf', '/f'],
      ['missing source', '/nope', '/x'],
      ['missing target parent', '/f', '/nope/x'],
      ['through a symlink', '/ld/sub', '/ld/moved'],
      ['dot source', '/d/.', '/x'],
      ['dot-dot target', '/f', '/d/..'],
      ['folder to a missing name with a dot', '/d', '/d/sub/.'],
    ];
    for (const [label, from, to] of cases) {
      const t = new Pair();
      t.all(setup);
      t.both({ op: 'rename', from, to }, label);
      t.same();
    }
  });

  it.skipIf(RM_SYNC_IS_NATIVE)('removes with rm and unlink as node does', () => {
    const setup: Op[] = [
      { op: 'mkdir', path: '/d/sub', recursive: true },
      { op: 'writeFile', path: '/d/sub/deep', data: 'deep' },
      { op: 'symlink', target: '../..', path: '/d/sub/up' },
      { op: 'mkdir', path: '/empty' },
      { op: 'writeFile', path: '/f', data: 'f' },
      { op: 'symlink', target: 'd', path: '/ld' },
      { op: 'symlink', target: 'f', path: '/lf' },
      { op: 'symlink', target: 'gone', path: '/lg' },
      { op: 'symlink', target: 'loop', path: '/loop' },
    ];
    const cases: Array<[string, Op]> = [];
    const optionSets: Array<RmOptions | undefined> = [undefined, { recursive: true }, { force: true }, { recursive: true, force: true }];
    for (const path of ['/f', '/d', '/empty', '/ld', '/ld/', '/lf', '/lf/', '/lg', '/loop', '/loop/x', '/nope', '/nope/x', '/f/x', '/d/.', '/f/', '/d/', '/d/sub/up/']) {
      for (const options of optionSets) cases.push([`rm ${path} ${JSON.stringify(options)}`, { op: 'rm', path, ...(options ? { options } : {}) }]);
      cases.push([`unlink ${path}`, { op: 'unlink', path }]);
    }
    for (const [label, op] of cases) {
      const t = new Pair();
      t.all(setup);
      t.both(op, label);
      t.same();
    }
    const t = new Pair();
    t.all(setup);
    expect(t.both({ op: 'rm', path: '/d' })).toEqual(fails('ERR_FS_EISDIR', 'rm'));
    expect(t.both({ op: 'rm', path: '/nope' })).toEqual(fails('ENOENT', 'lstat'));
    expect(t.both({ op: 'rm', path: '/nope', options: { force: true } })).toEqual(ok());
    expect(t.both({ op: 'rm', path: '/ld', options: { recursive: true } })).toEqual(ok());
    expect(t.both({ op: 'unlink', path: '/d' })).toEqual(fails('EISDIR', 'unlink'));
    expect(t.both({ op: 'stat', path: '/d/sub/deep' })).toEqual(ok({ kind: 'file', size: 4 }));
    expect(t.both({ op: 'rm', path: '/d', options: { recursive: true } })).toEqual(ok());
    t.same();
  });

  it('removes a whole folder even when the path to it runs through it', () => {
    // Node 20 would stop as soon as it removed `up`, leaving the entries ext4 lists after it.
    const memory = new MemoryFs();
    memory.mkdirSync('/a/b/c', { recursive: true });
    memory.writeFileSync('/a/z', 'z');
    memory.symlinkSync('..', '/a/up');
    memory.rmSync('/a/up/a', { recursive: true });
    expect(memory.readdirSync('/')).toEqual([]);
  });

  it('refuses rm of a path ending in `..`, where node would empty the parent in disk order', () => {
    // Node 20's rm runs rmdir(2), gets ENOTEMPTY for `..`, then removes the parent's entries in
    // readdir order until one removal breaks the path it is walking: what survives depends on
    // ext4's hash order. MemoryFs gives rmdir(2)'s answer and removes nothing. Without recursive the
    // answer is node's (ERR_FS_EISDIR, from lstat).
    const memory = new MemoryFs();
    memory.mkdirSync('/p/a/b', { recursive: true });
    const mem: Side = { fs: memory as unknown as SyncFs, root: '' };
    expect(run(mem, { op: 'rm', path: '/p/a/..', options: { recursive: true } })).toEqual(fails('ENOTEMPTY', 'rmdir'));
    expect(run(mem, { op: 'rm', path: '/p/a/b/..', options: { recursive: true, force: true } })).toEqual(fails('ENOTEMPTY', 'rmdir'));
    expect(run(mem, { op: 'rm', path: '/p/a/..' })).toEqual(fails('ERR_FS_EISDIR', 'rm'));
    expect(memory.readdirSync('/p/a')).toEqual(['b']);
  });

  it('copies data in and out', () => {
    const memory = new MemoryFs();
    const data = new Uint8Array([1, 2, 3]);
    memory.writeFileSync('/f', data);
    data[0] = 9;
    expect([...memory.readFileSync('/f')]).toEqual([1, 2, 3]);
    const read = memory.readFileSync('/f');
    read[1] = 9;
    expect([...memory.readFileSync('/f')]).toEqual([1, 2, 3]);
    const view = new Uint8Array(new ArrayBuffer(16), 4, 2);
    view.set([7, 8]);
    memory.writeFileSync('/g', view);
    view[0] = 0;
    expect([...memory.readFileSync('/g')]).toEqual([7, 8]);
    memory.writeFileSync('/s', 'ab');
    expect([...memory.readFileSync('/s')]).toEqual([97, 98]);
  });
});


const NAMES = ['a', 'b', 'c', 'x', 'y'];

function generator(rand: () => number): { op(): Op } {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const component = (): string => {
    const r = rand();
    return r < 0.8 ? pick(NAMES) : r < 0.9 ? '..' : r < 0.96 ? '.' : '';
  };
  const path = (): string => {
    if (rand() < 0.03) return '/';
    const count = 1 + Math.floor(rand() * 3.5);
    const parts: string[] = [];
    let depth = 0;
    for (let i = 0; i < count; i += 1) {
      let part = component();
      // A lexical `..` at the root would only climb above it, which is skipped.
      if (part === '..' && depth === 0) part = pick(NAMES);
      depth += part === '..' ? -1 : part === '' || part === '.' ? 0 : 1;
      parts.push(part);
    }
    return `/${parts.join('/')}${rand() < 0.1 ? '/' : ''}`;
  };
  const target = (): string => {
    const r = rand();
    if (r < 0.35) return path();
    if (r < 0.45) return pick(['.', '..', '../..', '/']);
    const count = 1 + Math.floor(rand() * 3);
    return Array.from({ length: count }, () => (rand() < 0.25 ? '..' : pick(NAMES))).join('/') + (rand() < 0.05 ? '/' : '');
  };
  const data = (): string | Uint8Array =>
    rand() < 0.5 ? pick(['', 'x', 'hello', 'é✓']) : Uint8Array.from({ length: Math.floor(rand() * 6) }, () => Math.floor(rand() * 256));
  const rmOptions = (): RmOptions | undefined => pick([undefined, {}, { recursive: true }, { force: true }, { recursive: true, force: true }]);
  const weighted: Array<[number, () => Op]> = [
    [14, () => ({ op: 'writeFile', path: path(), data: data() })],
    [7, () => ({ op: 'mkdir', path: path() })],
    [7, () => ({ op: 'mkdir', path: path(), recursive: true })],
    [10, () => ({ op: 'symlink', target: target(), path: path() })],
    [9, () => ({ op: 'rename', from: path(), to: path() })],
    [5, () => ({ op: 'rm', path: path(), options: rmOptions() })],
    [3, () => ({ op: 'unlink', path: path() })],
    [7, () => ({ op: 'readFile', path: path() })],
    [4, () => ({ op: 'readdir', path: path() })],
    [4, () => ({ op: 'readdir', path: path(), withFileTypes: true })],
    [6, () => ({ op: 'stat', path: path() })],
    [6, () => ({ op: 'lstat', path: path() })],
    [3, () => ({ op: 'exists', path: path() })],
    [4, () => ({ op: 'readlink', path: path() })],
    [5, () => ({ op: 'realpath', path: path() })],
  ];
  const total = weighted.reduce((sum, [weight]) => sum + weight, 0);
  return {
    op(): Op {
      let r = rand() * total;
      for (const [weight, make] of weighted) {
        r -= weight;
        if (r < 0) return make();
      }
      return (weighted[0] as [number, () => Op])[1]();
    },
  };
}

/** Where a walk of a path on the real side went (see {@link walkReal}). */
interface RealWalk {
  /** `..` was taken at the root. */
  climbs: boolean;
  /** Every folder and symlink the walk passed through, as `/a/b/` (folders entered, links followed). */
  passed: string[];
  /** Where it ended, as `/a/b/` (`/` for the root); the last component is not followed. */
  end: string;
}

/**
 * Walks `path` on the real side (a test-side approximation of the kernel's walk, used only to choose
 * what to skip): follows every symlink but the last (all of them when `followLast`), stops at a file
 * or after 40 symlinks, and with `throughMissing` walks on through missing components as if they were
 * folders (as a recursive mkdir can), over-approximating.
 */
function walkReal(root: string, path: string, options: { followLast: boolean; throughMissing: boolean }): RealWalk {
  const split = (text: string): string[] => text.split('/').filter((part) => part !== '' && part !== '.');
  const key = (names: string[]): string => `/${names.map((name) => `${name}/`).join('')}`;
  let todo = split(path);
  let stack: string[] = [];
  const passed: string[] = [];
  let hops = 0;
  while (todo.length > 0) {
    const name = todo.shift() as string;
    if (name === '..') {
      if (stack.length === 0) return { climbs: true, passed, end: '/' };
      stack.pop();
      continue;
    }
    const full = `${root}/${[...stack, name].join('/')}`;
    let kind: 'link' | 'file' | 'other' = 'other';
    try {
      const stats = nodeFs.lstatSync(full);
      kind = stats.isSymbolicLink() ? 'link' : stats.isFile() ? 'file' : 'other';
    } catch {
      // Missing: walk on as if it were a folder, or stop where the kernel stops.
      if (!options.throughMissing && todo.length > 0) return { climbs: false, passed: [], end: '' };
    }
    // The walk fails on a file: nothing to skip.
    if (kind === 'file' && todo.length > 0) return { climbs: false, passed: [], end: '' };
    const link = kind === 'link';
    if (link && (todo.length > 0 || options.followLast)) {
      passed.push(key([...stack, name]));
      hops += 1;
      // ELOOP: the walk fails, nothing to skip.
      if (hops > 40) return { climbs: false, passed: [], end: '' };
      let target = nodeFs.readlinkSync(full);
      if (target.startsWith('/')) {
        stack = [];
        target = target.slice(root.length);
      }
      todo = [...split(target), ...todo];
      continue;
    }
    stack.push(name);
    passed.push(key(stack));
  }
  return { climbs: false, passed, end: key(stack) };
}

function pathsOf(op: Op): string[] {
  return op.op === 'rename' ? [op.from, op.to] : [op.path];
}

/**
 * Why `op` is left out of the random comparison, if it is:
 * - any `rm` on a Node whose rmSync runs in C++ ({@link RM_SYNC_IS_NATIVE});
 * - a path climbs above the temp folder with `..` (see the note at the top);
 * - `rename` or recursive `rm` of `/` itself: on the temp folder these are an ordinary folder's rename
 *   or removal (the root's are checked against the real `/` above);
 * - a recursive `rm` whose path passes through the folder it removes (`a/b/..`, `a/up/a` with `up` →
 *   `..`): Node re-walks the path for every entry, so what it removes depends on ext4's readdir order
 *   (MemoryFs resolves the path once; see the `rm` tests).
 */
function skipReason(root: string, op: Op): string | undefined {
  if (op.op === 'rm' && RM_SYNC_IS_NATIVE) return "is compared on Node 22 only (this Node's rmSync runs in C++)";
  const everywhere = { followLast: true, throughMissing: true };
  if (pathsOf(op).some((path) => walkReal(root, path, everywhere).climbs)) return 'climbs above the root';
  if (op.op === 'symlink') {
    // Not a difference, but a symlink that climbs from where it is made would poison every later path
    // through it; such links are made in the explicit tests.
    const from = op.target.startsWith('/') ? op.target : `${op.path.replace(/\/+$/, '').replace(/[^/]*$/, '')}${op.target}`;
    if (walkReal(root, from, everywhere).climbs) return 'makes a symlink that climbs';
  }
  const isRoot = (path: string): boolean => /^\/+$/.test(path);
  if (op.op === 'rename' && (isRoot(op.from) || isRoot(op.to))) return 'renames the root';
  if (op.op === 'rm' && op.options?.recursive) {
    if (isRoot(op.path)) return 'removes the root';
    const walk = walkReal(root, op.path, { followLast: false, throughMissing: false });
    if (walk.passed.some((place) => place !== walk.end && place.startsWith(walk.end))) return 'passes through what it removes';
  }
  return undefined;
}

/**
 * Applies random operations to both sides until `count` have been compared (skipping those
 * {@link skipReason} names), expecting equal outcomes and, every 250, equal trees.
 */
function randomRun(seed: number, count: number): void {
  const t = new Pair();
  const { op: next } = generator(random(seed));
  let skipped = 0;
  for (let index = 0, compared = 0; compared < count; index += 1) {
    const op = next();
    const skip = skipReason(t.real.root, op);
    if (skip !== undefined) {
      skipped += 1;
      continue;
    }
    t.both(op, `seed ${seed} op #${index}`);
    compared += 1;
    if (compared % 250 === 0) expect({ seed, index, tree: snapshot(t.mem) }).toEqual({ seed, index, tree: snapshot(t.real) });
  }
  t.same();
  // The generator must keep most of its operations comparable.
  expect(skipped).toBeLessThan(count / 4);
}

describe('MemoryFs against node:fs, random operations', () => {
  for (const seed of [1, 2, 3]) {
    it(`gives node's outcome for 3,000 operations (seed ${seed})`, () => {
      randomRun(seed, 3000);
    });
  }
});

describe('MemoryFs limits', () => {
  it('refuses a component over 255 UTF-8 bytes with ENAMETOOLONG, as node does on Linux', () => {
    const memory = new MemoryFs();
    const tmp = nodeFs.mkdtempSync(join(tmpdir(), 'memfs-limits-'));
    try {
      for (const name of ['a'.repeat(255), 'a'.repeat(256), '\u20ac'.repeat(85), '\u20ac'.repeat(86), '\u{1F600}'.repeat(63), '\u{1F600}'.repeat(64)]) {
        const outcome = (run: () => void): string => {
          try {
            run();
            return 'ok';
          } catch (error) {
            return (error as { code: string }).code;
          }
        };
        const ours = outcome(() => memory.writeFileSync(`/${name}`, 'x'));
        const node = outcome(() => nodeFs.writeFileSync(join(tmp, name), 'x'));
        expect(ours, `${name.length} units`).toBe(node);
      }
      expect(() => memory.mkdirSync(`/d/${'b'.repeat(256)}/c`, { recursive: true })).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG', syscall: 'mkdir' }));
    } finally {
      nodeFs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('refuses a path of 4,096 bytes or more, so no tree gets deeper than that', () => {
    const memory = new MemoryFs();
    const deep = `/${'d/'.repeat(2047)}`; // 4,095 characters
    expect(memory.mkdirSync(deep, { recursive: true })).toBe('/d');
    expect(() => memory.mkdirSync(`${deep}e`, { recursive: true })).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG' }));
    expect(() => memory.writeFileSync(`${deep}ef`, 'x')).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG' }));
    expect(() => memory.statSync('/d/'.repeat(1500))).toThrow(expect.objectContaining({ code: 'ENAMETOOLONG' }));
  });

  it('treats an empty path as missing, not as /', () => {
    const memory = new MemoryFs();
    for (const run of [() => memory.statSync(''), () => memory.readFileSync(''), () => memory.mkdirSync(''), () => memory.readdirSync('')]) {
      expect(run).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    }
  });

  it('sets modification times with utimesSync, through symlinks, as fs.utimesSync does', () => {
    const memory = new MemoryFs();
    memory.writeFileSync('/f', 'x');
    memory.symlinkSync('f', '/l');
    memory.utimesSync('/l', 1_700_000_000, 1_700_000_123.5);
    expect(memory.statSync('/f').mtimeMs).toBe(1_700_000_123_500);
    memory.utimesSync('/f', new Date(0), new Date(42));
    expect(memory.lstatSync('/f').mtimeMs).toBe(42);
    expect(() => memory.utimesSync('/missing', 0, 0)).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'utime' }));
  });

  it('restoreTimesSync puts back stored times exactly, the status-change time included, as a reload does (no change of its own)', () => {
    const memory = new MemoryFs();
    memory.writeFileSync('/f', 'x');
    memory.symlinkSync('/f', '/link');
    memory.restoreTimesSync('/f', 1_733_492_310_123, 1_733_492_310_456);
    expect([memory.lstatSync('/f').mtimeMs, memory.lstatSync('/f').ctimeMs]).toEqual([1_733_492_310_123, 1_733_492_310_456]);
    expect(memory.storedFileSync('/f')).toMatchObject({ mtimeMs: 1_733_492_310_123, ctimeMs: 1_733_492_310_456 });
    // A final symlink is not followed: the link's own times.
    memory.restoreTimesSync('/link', 5, 6);
    expect([memory.lstatSync('/link').mtimeMs, memory.lstatSync('/f').mtimeMs]).toEqual([5, 1_733_492_310_123]);
    expect(() => memory.restoreTimesSync('/missing', 0, 0)).toThrow(expect.objectContaining({ code: 'ENOENT', syscall: 'utime' }));
  });
});
