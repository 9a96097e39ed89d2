// The README and docs/ as a newcomer meets them: the front page's size and first lines, every relative
// link, and the docs' examples run as written (toolhost pointed at this checkout's sources). The
// README's Node host and AI SDK quick starts run in test/readme-quickstarts.test.ts; that every ```ts
// block compiles is test/docs-typecheck.test.ts; the MCP client configurations, test/readme-mcp.test.ts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, docFiles, entrySources, runCode, tsBlock as block } from './support/doc-blocks.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
/** The front page's budget: what toolhost is, set-up, quick starts, entries and links; the rest is in docs/. */
const README_MAX_BYTES = 12 * 1024;
/**
 * Pages other work adds to docs/ that these pages already link to. A link to one of them is checked
 * once the file exists and passes until then; every other link must point at a file that exists.
 */
const EXPECTED_TO_COME = new Set(['docs/profiles/openai.md', 'docs/profiles/gemini.md', 'docs/profiles/anthropic.md', 'docs/mcp-conformance.md']);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string)));
}

/** Each relative link of a Markdown file (code blocks and inline code left out), as written. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(join(REPO, file), 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

describe('README front page', () => {
  it('starts with the two fresh-machine commands', () => {
    const firstBlock = README.split('```')[1] ?? '';
    expect(README.startsWith('# toolhost\n\n```sh\n')).toBe(true);
    expect(firstBlock).toContain('npm ci && npm run demo');
    expect(firstBlock).toContain('npm ci && npm test');
  });

  it('is at most 12 KB, says npm install toolhost, and has the four quick starts and the map of entries', () => {
    expect(Buffer.byteLength(README)).toBeLessThanOrEqual(README_MAX_BYTES);
    expect(README).toContain('\nnpm install toolhost\n');
    const headings = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(
      expect.arrayContaining(['Quick start: a Node host', 'Quick start: a browser worker', 'Quick start: an MCP server for a coding agent', 'Quick start: the Vercel AI SDK', 'Entries', 'Documentation']),
    );
    // Every entry of package.json's exports is in the map.
    for (const entry of Object.keys(entrySources())) expect(README, entry).toContain(`| \`${entry}\` |`);
  });

  it('states the measured test durations', () => {
    // The README's figures are the ones the durations table of docs/contributing.md records.
    const fast = /`npm run test:fast` runs the quick Node tests alone in ([\d.]+ s)/.exec(README)?.[1];
    const full = /`npm ci && npm test` took (\d+ min)/.exec(README)?.[1];
    expect([fast, full].every(Boolean), 'README states the test:fast and npm test durations').toBe(true);
    const table = readFileSync(join(REPO, 'docs', 'contributing.md'), 'utf8').split('\n');
    expect(table.find((line) => line.startsWith('| `npm run test:fast` |'))).toContain(`| ${fast} (`);
    expect(table.find((line) => line.startsWith('| `npm ci && npm test` on Node 24 |'))).toContain(`(${full})`);
  });

  it('records test durations under the paths of this checkout', () => {
    // test/durations.json orders a fresh clone's files (longest first); a key that names no file here
    // (a path of another clone, a removed file) leaves that file unordered.
    const recorded = Object.keys(JSON.parse(readFileSync(join(REPO, 'test', 'durations.json'), 'utf8')) as Record<string, number>);
    expect(recorded.length).toBeGreaterThan(100);
    expect(recorded.filter((path) => path.startsWith('..') || !/\.test\.ts$/.test(path) || !existsSync(join(REPO, path)))).toEqual([]);
  });
});

describe('links of the README and docs/', () => {
  it('lists the pages other work adds, each still linked from these pages', () => {
    const linked = new Set(docFiles().flatMap((file) => relativeLinks(file).map((target) => normalize(join(dirname(file), target.split('#')[0] as string)))));
    for (const page of EXPECTED_TO_COME) expect(linked.has(page), page).toBe(true);
  });

  it('points every relative link at a file that exists, and every #anchor at a heading of it', () => {
    const broken: string[] = [];
    for (const file of docFiles()) {
      for (const target of relativeLinks(file)) {
        const [path = '', anchor] = target.split('#');
        const resolved = path === '' ? file : normalize(join(dirname(file), path));
        if (EXPECTED_TO_COME.has(resolved) && !existsSync(join(REPO, resolved))) continue;
        if (!existsSync(join(REPO, resolved))) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && statSync(join(REPO, resolved)).isFile() && !anchors(join(REPO, resolved)).has(anchor)) {
          broken.push(`${file}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('examples of docs/, run as written', () => {
  it('runs the tour and the tool-state example of docs/runner.md as written', async () => {
    const tour = block('docs/runner.md', 'A short tour');
    const state = block('docs/runner.md', 'Tool state and context');
    // The state example imports defineTool, which the tour's module has imported already.
    const mod = await runCode(`${tour.code}\n${state.code.replace("import { defineTool } from 'toolhost';\n", '')}`, `
      export const decls = runner.declarations().map((d) => d.name);
      export const results = await runner.processToolCalls([
        { id: '1', name: 'grep_search', args: { pattern: 'answer' } },
        { id: '2', name: 'edit_file', args: { file_path: 'src/app.ts', old_string: '41', new_string: '42' } },
      ]);
      export const again = await runner.execute('counter', {}, { conversationId: 'chat-1' });
      export const forecastOut = await runner.execute('get_forecast', { city: 'Oslo' });
      export const forecastBad = await runner.execute('get_forecast', { city: 'O' }).catch((error) => ({ code: error.code, message: error.message }));
      export const annotations = runner.tools().find((t) => t.name === 'get_weather')?.annotations;`);
    expect(mod.decls).toEqual(expect.arrayContaining(['get_weather', 'get_forecast', 'view_file', 'counter']));
    const [grep, edit] = mod.results as Array<{ id: string; result: Record<string, unknown> }>;
    expect(grep?.result).toMatchObject({ total_matches: 1 });
    // The tour already made this edit once, so the same edit now finds no "41".
    expect(edit).toMatchObject({ id: '2', code: 'no_match' });
    expect(mod.again).toEqual({ count: 2 });
    expect(mod.forecastOut).toEqual({ city: 'Oslo', days: 3, conversation: 'default' });
    expect(mod.forecastBad).toEqual({ code: 'invalid_arguments', message: 'invalid arguments for get_forecast: city: Too small: expected string to have >=2 characters' });
    expect(mod.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  });

  it("runs docs/memory.md's example", async () => {
    const mod = await runCode(block('docs/memory.md', 'The memory platform (`createMemoryPlatform`, `toolhost`)').code, "export const text = await runner.execute('view_file', { file_path: 'src/app.ts' });\nexport const logo = await platform.fs.readFile('/workspace/logo.png');");
    expect(mod.text).toMatchObject({ content: 'export const answer = 41;' });
    expect([...(mod.logo as Uint8Array)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});
