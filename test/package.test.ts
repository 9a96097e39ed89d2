import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAZY_MODULES } from '../scripts/build-lazy.mjs';
import { readmeWorkerExample } from '../scripts/readme-worker.mjs';

const ROOT = join(import.meta.dirname, '..');
const execFileAsync = promisify(execFile);

function manifestExports(): Record<string, unknown> {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports;
}
const ENTRIES = ['toolhost', 'toolhost/agent', 'toolhost/web', 'toolhost/web/search-index', 'toolhost/node'];

// Globals an entry must not touch at import time.
const TRAPPED = ['window', 'document', 'self', 'navigator', 'indexedDB', 'localStorage', 'Worker', 'SharedWorker', 'caches'];

const probe = (entry: string): string => `
const touched = [];
for (const name of ${JSON.stringify(TRAPPED)}) {
  const had = Object.getOwnPropertyDescriptor(globalThis, name);
  Object.defineProperty(globalThis, name, {
    configurable: true,
    get() { touched.push(name); return had && 'value' in had ? had.value : had?.get?.call(globalThis); },
    set(v) { touched.push(name + '='); },
  });
}
const before = new Set(Object.getOwnPropertyNames(globalThis));
const mod = await import(${JSON.stringify(entry)});
const added = Object.getOwnPropertyNames(globalThis).filter((n) => !before.has(n));
console.log(JSON.stringify({ exports: Object.keys(mod).sort(), touched, added }));
`;

/**
 * `npm pack --dry-run` in a fresh checkout: the tracked files as they are in the working tree, as a
 * clone has them (no dist/, no lazy/*.min.js), and this repository's node_modules. Its prepack build
 * is a minute of tsc on one core, so it starts with the file and runs beside the tests of the
 * installed package (child processes too); the last test awaits it. Answers pack's stdout, the
 * tracked files and whether the checkout had a dist/ folder before the pack.
 */
async function packFreshCheckout(checkout: string): Promise<{ out: string; tracked: string[]; hadDist: boolean }> {
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((path) => path !== '' && existsSync(join(ROOT, path)));
  for (const path of tracked) {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    copyFileSync(join(ROOT, path), join(checkout, path));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const hadDist = existsSync(join(checkout, 'dist'));
  const { stdout } = await execFileAsync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: checkout, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { out: stdout, tracked, hadDist };
}

let checkout = '';
let freshCheckoutPack: Promise<{ out: string; tracked: string[]; hadDist: boolean }>;
beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'toolhost-checkout-'));
  freshCheckoutPack = packFreshCheckout(checkout);
  // Awaited by the last test; a failure before then is reported there, not as an unhandled rejection.
  freshCheckoutPack.catch(() => undefined);
});
afterAll(async () => {
  await freshCheckoutPack?.catch(() => undefined);
  if (checkout) rmSync(checkout, { recursive: true, force: true });
});

describe('the npm package', () => {
  let project = '';
  let tarball = '';

  beforeAll(() => {
    // `npm test` builds dist/ before vitest runs; pack exactly what would be published. The prepack
    // build is skipped here: it deletes dist/ while the other test files run the built CLI (the test
    // below checks it in a checkout of its own).
    const packDir = mkdtempSync(join(tmpdir(), 'toolhost-pack-'));
    execFileSync('npm', ['pack', '--pack-destination', packDir, '--silent', '--ignore-scripts'], { cwd: ROOT, stdio: 'pipe' });
    tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz')) as string);
    project = mkdtempSync(join(tmpdir(), 'toolhost-consumer-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball], { cwd: project, stdio: 'pipe' });
  }, 240_000);

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it.each(ENTRIES)('imports %s in a fresh project without touching platform globals', (entry) => {
    const out = execFileSync('node', ['--input-type=module', '-e', probe(entry)], { cwd: project, encoding: 'utf8' });
    const { exports, touched, added } = JSON.parse(out.trim().split('\n').pop() as string) as { exports: string[]; touched: string[]; added: string[] };
    expect(touched).toEqual([]);
    expect(added).toEqual([]);
    expect(exports.length).toBeGreaterThan(0);
    if (entry === 'toolhost') expect(exports).toEqual(expect.arrayContaining(['ToolRunner', 'defineTool', 'ToolError', 'BuiltinTools', 'createMemoryPlatform']));
    if (entry === 'toolhost/agent') expect(exports).toEqual(expect.arrayContaining(['Agent', 'geminiModel', 'scriptedModel']));
    if (entry === 'toolhost/web') expect(exports).toEqual(expect.arrayContaining(['exposeToolRunner', 'connectToolRunner']));
    if (entry === 'toolhost/web/search-index') expect(exports).toEqual(['webSearchIndex']);
    if (entry === 'toolhost/node') expect(exports).toEqual(expect.arrayContaining(['createNodePlatform', 'spawnToolWorker']));
  });

  it('loads toolhost/node without its optional peer ioredis; createRedisStateStore then answers unavailable naming it', () => {
    const script = `
      import { createRedisStateStore } from 'toolhost/node';
      const state = createRedisStateStore({ url: 'redis://127.0.0.1:1' });
      try { await state.get('c', 'k'); console.log('resolved'); } catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }
    `;
    const out = execFileSync('node', ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
    expect(JSON.parse(out)).toMatchObject({ code: 'unavailable', message: expect.stringContaining('npm install ioredis') });
  });

  it('runs a tool from the installed package, types included', () => {
    const script = `
      import { ToolRunner, BuiltinTools } from 'toolhost';
      const runner = new ToolRunner({ tools: BuiltinTools.all() });
      await runner.execute('create_file', { file_path: 'hello.txt', content: 'hi\\n' });
      const view = await runner.execute('view_file', { file_path: '/workspace/hello.txt' });
      await runner.execute('create_file', { file_path: 'evil.txt', content: 'a'.repeat(50000) + '!\\n' });
      const grep = await runner.execute('grep_search', { pattern: '(a+)+!' });
      const edit = await runner.execute('edit_file', { file_path: 'hello.txt', old_string: 'hi', new_string: 'ho' });
      await runner.execute('create_file', { file_path: '.gitignore', content: 'evil.txt\\n' });
      const ignored = await runner.execute('grep_search', { pattern: '!|ho' });
      const missed = await runner.execute('edit_file', { file_path: 'hello.txt', old_string: 'ho!', new_string: 'x' }).catch((error) => error.message);
      const found = await runner.execute('find_file', { pattern: '*.txt' });
      console.log(JSON.stringify({ view, grep: grep.matches.map((m) => m.file_path), diff: edit.diff, ignored: ignored.matches.map((m) => m.file_path), missed, found: found.files }));
    `;
    const out = execFileSync('node', ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' });
    // The catastrophic pattern runs on re2js, the diff on diff, the .gitignore on ignore: each imported
    // from the package's dependencies; the pattern parser, the no_match hint and the glob compiler from the package's lazy/*.min.js.
    expect(JSON.parse(out)).toMatchObject({
      view: { file_path: '/workspace/hello.txt', content: 'hi', total_lines: 1 },
      grep: ['/workspace/evil.txt'],
      diff: '--- /workspace/hello.txt\n+++ /workspace/hello.txt\n@@ -1,1 +1,1 @@\n-hi\n+ho\n',
      ignored: ['/workspace/hello.txt'],
      missed: 'old_string was not found in /workspace/hello.txt. The closest line is 1: "ho". Text, whitespace and indentation must match exactly; view_file the lines around it and copy them.',
      found: ['/workspace/hello.txt'],
    });
    const types = readdirSync(join(project, 'node_modules', 'toolhost', 'dist', 'src', 'core')).filter((f) => f.endsWith('.d.ts'));
    expect(types).toEqual(expect.arrayContaining(['runner.d.ts', 'tool.d.ts', 'host.d.ts']));
  });

  it("builds the README's worker from the installed package with Vite defaults, re2js, ignore, diff, the pattern parser, the no_match hint and the glob compiler each a file of its own beside it", async () => {
    const { worker, page } = readmeWorkerExample();
    writeFileSync(join(project, 'worker.ts'), worker);
    writeFileSync(join(project, 'page.ts'), page);
    writeFileSync(join(project, 'index.html'), '<!doctype html><html><head><title>app</title></head><body><script type="module" src="./page.ts"></script></body></html>');
    await build({ root: project, configFile: false, logLevel: 'error', build: { outDir: join(project, 'dist') } });
    const assets = readdirSync(join(project, 'dist', 'assets'));
    const workers = assets.filter((name) => name.startsWith('worker') && name.endsWith('.js'));
    expect(workers.length).toBe(1);
    const code = readFileSync(join(project, 'dist', 'assets', workers[0] as string), 'utf8');
    // Each library, by a string of its own: in its file, which the worker names, and not in the worker.
    for (const [name, marker] of [['re2js', 'missing closing )'], ['ignore', 'node-ignore'], ['diff', 'must be specified for Git patches'], ['regex-parser', 'invalid hexadecimal escape'], ['edit-hint', 'Text, whitespace and indentation must match exactly'], ['glob', 'is not a valid glob']] as const) {
      const files = assets.filter((asset) => new RegExp(`^${name}\\.min-[\\w-]+\\.js$`).test(asset));
      expect(files.length, name).toBe(1);
      expect(code.includes(files[0] as string), name).toBe(true);
      expect(code.includes(marker), name).toBe(false);
      expect(readFileSync(join(project, 'dist', 'assets', files[0] as string), 'utf8'), name).toContain(marker);
    }
  }, 120_000);

  it('starts `npx toolhost mcp --root .` with nothing else installed, and it answers a real MCP client on stdio', async () => {
    writeFileSync(join(project, 'note.txt'), 'hello from the consumer\n');
    const transport = new StdioClientTransport({ command: 'npx', args: ['toolhost', 'mcp', '--root', '.'], cwd: project, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe('toolhost');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['view_file', 'create_file', 'grep_search']));
      const result = await client.callTool({ name: 'view_file', arguments: { file_path: 'note.txt' } });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('hello from the consumer');
    } catch (error) {
      throw new Error(`${(error as Error).message}; the server's stderr: ${stderr}`);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('passes publint: every entry, file and field of the manifest as a registry would publish it', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'node_modules', 'publint', 'src', 'cli.js'), '--strict', tarball], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    expect(out).toContain('All good!');
  }, 60_000);

  it('passes Are the Types Wrong? for every entry, as an ESM-only package resolves (node16 from ESM, bundler)', () => {
    const cli = join(ROOT, 'node_modules', '@arethetypeswrong', 'cli', 'dist', 'index.js');
    const out = execFileSync(process.execPath, [cli, tarball, '--profile', 'esm-only', '--format', 'json'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    const report = JSON.parse(out) as { analysis: { entrypoints: Record<string, unknown> }; problems?: Record<string, { resolutionKind: string }[]> };
    // Every entry of package.json was analysed (the ESM-only profile leaves out node10 and CJS callers).
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual(Object.keys(manifestExports()).sort());
    const problems = Object.values(report.problems ?? {}).flat().filter((problem) => problem.resolutionKind === 'node16-esm' || problem.resolutionKind === 'bundler');
    expect(problems).toEqual([]);
  }, 120_000);

  it('ships the MIT licence beside the README', () => {
    const installed = join(project, 'node_modules', 'toolhost');
    expect(readFileSync(join(installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(readdirSync(installed)).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
  });

  it("ships the docs the README links to, so its links work in the installed package", () => {
    const installed = join(project, 'node_modules', 'toolhost');
    const readme = readFileSync(join(installed, 'README.md'), 'utf8');
    const linked = [...new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((match) => match[1] as string))];
    expect(linked.length).toBeGreaterThan(5);
    for (const path of linked) expect(existsSync(join(installed, path)), path).toBe(true);
    expect(existsSync(join(installed, 'docs', 'profiles', 'gemini.md'))).toBe(true);
  });
});

describe('npm pack in a fresh checkout', () => {
  it('builds first (prepack), so the tarball ships dist/ for every source module and the lazy bundles, though the checkout has neither', async () => {
    const { out, tracked, hadDist } = await freshCheckoutPack;
    expect(hadDist).toBe(false);
    // The build's own output comes first on stdout; the JSON report is the last thing printed.
    const report = JSON.parse(out.slice(out.lastIndexOf('\n[\n') + 1)) as { files: { path: string }[] }[];
    const shipped = (report[0] as { files: { path: string }[] }).files.map((file) => file.path);

    const sources = tracked.filter((path) => /^(src|web|node|bridges)\//.test(path) && /\.(ts|js)$/.test(path) && !/\.(test|spec)\.ts$|\.d\.ts$/.test(path));
    const expected = sources.map((path) => `dist/${path.replace(/\.ts$/, '.js')}`).sort();
    expect(shipped.filter((path) => path.startsWith('dist/') && path.endsWith('.js')).sort()).toEqual(expected);
    expect(shipped.filter((path) => path.startsWith('lazy/')).sort()).toEqual(
      ['lazy/browser.js', 'lazy/index.d.ts', 'lazy/node.js', 'lazy/thread-worker.js', 'lazy/threads.js', ...LAZY_MODULES.map((module: { file: string }) => `lazy/${module.file}`)].sort(),
    );
  }, 240_000);
});
