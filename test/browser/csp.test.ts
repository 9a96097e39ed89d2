import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, newProfile, removeProfile, requireChromium, startServer, type BrowserSession, type TestServer } from './harness.js';

type Result = { id?: string; name: string; result?: any; error?: string; code?: string };
declare const th: {
  start(config: Record<string, unknown>): Promise<number>;
  call(calls: unknown[], options?: unknown): Promise<Result[]>;
  registerEcho(): Promise<{ ok: boolean; code?: string; message?: string }>;
  canEval(): boolean;
};

let server: TestServer;
let session: BrowserSession;
let profile: string;
beforeAll(async () => {
  requireChromium();
  server = await startServer({ csp: true });
  profile = newProfile();
  session = await launch(profile);
});
afterAll(async () => {
  await session?.close();
  await server?.close();
  if (profile) removeProfile(profile);
});

describe("web worker under Content-Security-Policy: script-src 'self'", () => {
  it('runs every built-in tool with precompiled validators, while a runtime-compiled schema is refused clearly', async () => {
    const page = session.page;
    const response = await page.goto(server.page('csp.html'));
    expect(response?.headers()['content-security-policy']).toBe("script-src 'self'");
    await page.waitForFunction(() => document.title === 'toolhost test page ready');
    expect(await page.evaluate(() => th.canEval())).toBe(false);
    expect(await page.evaluate(() => th.start({ workspace: 'csp', csp: true }))).toBe(13);
    const results = await page.evaluate(() =>
      th.call([
        { name: 'create_file', args: { file_path: 'src/a.ts', content: 'const aaa = 1;\nconst b = 2;\n' } },
        { name: 'edit_file', args: { file_path: 'src/a.ts', old_string: 'b = 2', new_string: 'b = 3' } },
        { name: 'view_file', args: { file_path: 'src/a.ts', start_line: '2' } },
        { name: 'list_dir', args: { dir_path: '/workspace/src' } },
        { name: 'find_file', args: { pattern: '*.ts' } },
        { name: 'search_dir', args: { query: 'const' } },
        { name: 'grep_search', args: { pattern: 'a{3}' } },
        { name: 'run_command', args: { command: 'ls' } },
        { name: 'web_search', args: { query: 'x' } },
        { name: 'view_file', args: { file_path: 'src/a.ts', bogus: 1 } },
      ]),
    );
    expect(results.map((r) => r.code ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'invalid_arguments']);
    expect(results[2]?.result.content).toBe('const b = 3;');
    expect(results[4]?.result.files).toEqual(['/workspace/src/a.ts']);
    expect(results[5]?.result.total_matches).toBe(2);
    expect(results[6]?.result.matches.map((m: { line_number: number }) => m.line_number)).toEqual([1]);
    expect(results[7]?.result.note).toBe('run_command is not available in the browser');
    expect(results[8]?.result.note).toBe('Search is not available in the browser');
    expect(results[9]?.error).toMatch(/bogus/);
    // A pattern V8 could backtrack on loads re2js, a same-origin file the policy admits.
    const [catastrophic] = await page.evaluate(() => th.call([{ name: 'grep_search', args: { pattern: '(a|aa)+ =' } }]));
    expect(catastrophic?.result.matches.map((m: { line_number: number }) => m.line_number)).toEqual([1]);
    const echo = await page.evaluate(() => th.registerEcho());
    // A host's mistake (a schema this worker cannot compile) is a TypeError on the page, never invalid_arguments.
    expect(echo).toMatchObject({ ok: false, code: 'TypeError' });
    expect(echo.message).toMatch(/code generation from strings/);
  });
});
