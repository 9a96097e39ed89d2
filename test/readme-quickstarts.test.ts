// The README's quick starts, run for real: the Node host on a real folder, and the AI SDK one with the
// AI SDK's own mock model (MockLanguageModelV4 from ai/test) in place of the model it names. Slow on a
// busy machine (they load the Node platform and the AI SDK from source), so not in `npm run test:fast`.
// docs/testing-your-agent.md's examples (a scripted agent, the AI SDK's mock) run here too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCode, tsBlock as block } from './support/doc-blocks.js';

describe("the README's quick starts and docs/testing-your-agent.md, run as written", () => {
  it('runs the Node host quick start on a real folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-readme-node-'));
    try {
      const { code } = block('README.md', 'Quick start: a Node host');
      expect(code).toContain('process.cwd()');
      const mod = await runCode(code.replaceAll('process.cwd()', JSON.stringify(dir)), 'export { declarations, results };');
      expect((mod.declarations as { name: string }[]).map((d) => d.name)).toEqual(expect.arrayContaining(['greet', 'view_file', 'create_file']));
      const [greet, create, view] = mod.results as Array<Record<string, unknown>>;
      expect(greet).toEqual({ id: '1', name: 'greet', result: { hello: 'Ada' } });
      expect(create).toMatchObject({ id: '2', name: 'create_file', result: { bytes_written: 3, created: true } });
      expect((create?.result as { file_path: string }).file_path.endsWith('/hello.txt')).toBe(true);
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

  it("runs docs/testing-your-agent.md's scripted agent and AI SDK mock examples, which log what their comments say", async () => {
    const scripted = await runCode(block('docs/testing-your-agent.md', "toolhost's own agent loop: `scriptedModel`").code);
    expect(scripted.logs).toEqual([['no_tool_calls'], ['alpha gamma\n']]);
    const agents = await runCode(block('docs/testing-your-agent.md', 'OpenAI Agents JS: a `Model` of your own').code);
    expect(agents.logs).toEqual([['Done.', 'alpha gamma\n']]);
    const mocked = await runCode(block('docs/testing-your-agent.md', 'The Vercel AI SDK: `MockLanguageModelV4`').code);
    const [[text, output]] = mocked.logs as [[string, { total_matches: number }]];
    expect(text).toBe('Found it.');
    expect(output.total_matches).toBe(1);
  });
});
