// The README and docs/ as a newcomer meets them: the front page's size and first lines, every relative
// link, and the quick starts and examples run as written (toolhost pointed at this checkout's sources).
// That every ```ts block compiles is test/docs-typecheck.test.ts; the MCP client configurations,
// test/readme-mcp.test.ts.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, codeBlocks, docFiles, entrySources, type CodeBlock } from './support/doc-blocks.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');
/** The front page's budget: what toolhost is, set-up, quick starts, entries and links; the rest is in docs/. */
const README_MAX_BYTES = 12 * 1024;
/**
 * Pages other work adds to docs/ that these pages already link to. A link to one of them is checked
 * once the file exists and passes until then; every other link must point at a file that exists.
 */
const EXPECTED_TO_COME = new Set(['docs/profiles/openai.md', 'docs/profiles/gemini.md', 'docs/profiles/anthropic.md', 'docs/mcp-conformance.md']);

/** The ```ts block of `file` under the heading `heading` (the `index`-th there). */
function block(file: string, heading: string, index = 0): CodeBlock {
  const found = codeBlocks(file).filter((b) => b.lang === 'ts' && b.heading === heading)[index];
  if (!found) throw new Error(`${file} has no ts block under "${heading}"`);
  return found;
}

/**
 * Runs `code` as a module with `toolhost` entries pointing at the sources, `console.log` collected in
 * the module's `logs`, and `epilogue` appended (its exports are returned).
 */
async function runCode(code: string, epilogue = ''): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(REPO, 'test', '.readme-'));
  try {
    const file = join(dir, 'block.ts');
    let source = code.replace(/console\.log\(/g, '__log(');
    for (const [entry, path] of Object.entries(entrySources())) source = source.replaceAll(`from '${entry}'`, `from ${JSON.stringify(path)}`);
    writeFileSync(file, `export const logs: unknown[][] = [];\nconst __log = (...values: unknown[]) => { logs.push(values); };\n${source}\n${epilogue}\n`);
    return (await import(file)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
    expect(README).toContain('55.6 s');
    expect(README).toContain('675 s');
    expect(readFileSync(join(REPO, 'docs', 'contributing.md'), 'utf8')).toContain('55.6 s');
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

describe('quick starts and examples, run as written', () => {
  it('runs the Node host quick start on a real folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-readme-node-'));
    try {
      const { code } = block('README.md', 'Quick start: a Node host');
      expect(code).toContain('process.cwd()');
      const mod = await runCode(code.replaceAll('process.cwd()', JSON.stringify(dir)), 'export { declarations, results };');
      expect((mod.declarations as { name: string }[]).map((d) => d.name)).toEqual(expect.arrayContaining(['greet', 'view_file', 'create_file']));
      const [greet, create, view] = mod.results as Array<Record<string, unknown>>;
      expect(greet).toEqual({ id: '1', name: 'greet', result: { hello: 'Ada' } });
      expect(create).toMatchObject({ id: '2', name: 'create_file' });
      expect(create?.result).toBeDefined();
      expect(view).toMatchObject({ id: '3', name: 'view_file', code: 'not_found' });
      expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hi\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs the AI SDK quick start with the AI SDK's mock model in place of the real one", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-readme-ai-'));
    writeFileSync(join(dir, 'notes.txt'), 'alpha\n');
    try {
      const { code } = block('README.md', 'Quick start: the Vercel AI SDK');
      const modelLine = /^const model = .*$/m;
      expect(code).toMatch(modelLine);
      const mock = `import { MockLanguageModelV4 } from 'ai/test';
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const model = new MockLanguageModelV4({ doGenerate: [
  { content: [{ type: 'tool-call', toolCallId: 'l1', toolName: 'list_dir', input: JSON.stringify({ dir_path: '.' }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },
  { content: [{ type: 'text', text: 'One file: notes.txt.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
] });`;
      const source = code.replace(modelLine, mock).replaceAll('process.cwd()', JSON.stringify(dir));
      const mod = await runCode(source, 'export { result };');
      const result = mod.result as { text: string; steps: { toolResults: { toolName: string; output: { entries: { name: string }[] } }[] }[] };
      expect(mod.logs).toEqual([['One file: notes.txt.']]);
      expect(result.steps[0]?.toolResults[0]?.toolName).toBe('list_dir');
      expect(result.steps[0]?.toolResults[0]?.output.entries.map((e) => e.name)).toEqual(['notes.txt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

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
    expect(mod.forecastBad).toEqual({ code: 'invalid_arguments', message: 'invalid arguments for get_forecast: /city: Too small: expected string to have >=2 characters' });
    expect(mod.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
  });

  it("runs docs/testing-your-agent.md's scripted agent and AI SDK mock examples, which log what their comments say", async () => {
    const scripted = await runCode(block('docs/testing-your-agent.md', "toolhost's own agent loop: `scriptedModel`").code);
    expect(scripted.logs).toEqual([['no_tool_calls'], ['alpha gamma\n']]);
    const mocked = await runCode(block('docs/testing-your-agent.md', 'The Vercel AI SDK: `MockLanguageModelV4`').code);
    const [[text, output]] = mocked.logs as [[string, { total_matches: number }]];
    expect(text).toBe('Found it.');
    expect(output.total_matches).toBe(1);
  });

  it("runs docs/memory.md's example", async () => {
    const mod = await runCode(block('docs/memory.md', 'The memory platform (`createMemoryPlatform`, `toolhost`)').code, "export const text = await runner.execute('view_file', { file_path: 'src/app.ts' });\nexport const logo = await platform.fs.readFile('/workspace/logo.png');");
    expect(mod.text).toMatchObject({ content: 'export const answer = 41;' });
    expect([...(mod.logo as Uint8Array)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});
