// The playground's chat panel in Debian Chromium against `vite preview` of the built demo: the agent loop
// and the Gemini client run on the page and talk to the fake Gemini generateContent server on
// 127.0.0.1 (another port, so every request is cross-origin with a CORS preflight); the tool calls run
// in the workspace's worker through its RemoteToolRunner. One browser profile for the file: the tests
// run in order on the example workspace, each in a new playground conversation.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { geminiFormat } from '../fixtures/model-servers/gemini.js';
import { startScriptedApi, type ScriptStep, type ScriptedApi, type SeenResult } from '../fixtures/model-servers/scripted-api.js';
import { axeViolations, launch, ROOT, settled, startDemo, type Browser, type DemoServer } from './harness.js';

const SHOTS = join(ROOT, 'test-results', 'playground');
const KEY = 'browser-test-key';
const MODEL = 'gemini-test';

interface ChatEvent {
  workspace: string;
  conversation: string;
  event: { type: string; reason?: string; call?: { name: string }; result?: { name: string; code?: string }; error?: { code: string; message: string } };
}

async function showTab(page: Page, tab: 'chat' | 'console' | 'history'): Promise<void> {
  await page.click(`#${tab}-tab`);
  await expect.poll(() => page.getAttribute(`#${tab}-tab`, 'aria-selected')).toBe('true');
}

/** Starts a new playground conversation (a fresh chat transcript and model history) and shows the chat. */
async function newConversation(page: Page): Promise<string> {
  const before = await page.evaluate(() => (globalThis as unknown as { playground: { conversation: string } }).playground.conversation);
  await page.click('#conv-new');
  await page.waitForFunction((old) => (globalThis as unknown as { playground: { conversation: string } }).playground.conversation !== old, before);
  await showTab(page, 'chat');
  return page.evaluate(() => (globalThis as unknown as { playground: { conversation: string } }).playground.conversation);
}

/** Fills the chat settings as a user does: Gemini, the fake server's URL, model and key. */
async function configure(page: Page, url: string, key = KEY): Promise<void> {
  await page.selectOption('#chat-provider', 'gemini');
  await page.fill('#chat-base-url', url);
  await page.fill('#chat-model', MODEL);
  await page.fill('#chat-key', key);
}

async function send(page: Page, prompt: string): Promise<void> {
  await page.fill('#chat-input', prompt);
  await page.click('#chat-send');
}

/** Waits for the `done` entry of the current transcript; returns its reason. */
async function runEnded(page: Page, timeout = 60_000): Promise<string> {
  const done = page.locator('#chat-log [data-kind="done"]').last();
  await done.waitFor({ timeout });
  return (await done.getAttribute('data-reason')) ?? '';
}

async function events(page: Page, conversation: string): Promise<ChatEvent['event'][]> {
  const all = await page.evaluate(() => (globalThis as unknown as { playground: { chat: { events: ChatEvent[] } } }).playground.chat.events);
  return all.filter((e) => e.conversation === conversation).map((e) => e.event);
}

/** Runs view_file from the tool console (a call through the playground, not the chat). */
async function viewThroughConsole(page: Page, path: string): Promise<{ content?: string; code?: string }> {
  await showTab(page, 'console');
  await page.click('#tool-list button[data-tool="view_file"]');
  if ((await page.getAttribute('#as-json', 'aria-pressed')) !== 'true') await page.click('#as-json');
  await page.fill('#args-json', JSON.stringify({ file_path: path }));
  await page.evaluate(() => document.getElementById('result')?.replaceChildren());
  await page.click('#run');
  await page.waitForSelector('#result .outcome', { timeout: 20_000 });
  const badge = await page.$('#result .code-badge');
  if (badge) return { code: (await badge.textContent()) ?? '' };
  return JSON.parse((await page.textContent('#result pre.json')) ?? 'null') as { content: string };
}

describe('playground chat panel (demo/chat.ts) against a local Gemini-format server', () => {
  let server: DemoServer;
  let browser: Browser;
  let page: Page;
  const apis: ScriptedApi[] = [];

  async function api(steps: ScriptStep[]): Promise<ScriptedApi> {
    const started = await startScriptedApi(geminiFormat, steps, { model: MODEL, apiKey: KEY });
    apis.push(started);
    return started;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // The demo's build and server start beside Chromium's launch.
    [server, browser] = await Promise.all([startDemo(), launch()]);
    page = await browser.open(server.url);
  }, 120_000);

  afterEach(async () => {
    await page.evaluate(() => {
      for (const dialog of document.querySelectorAll('dialog[open]')) (dialog as HTMLDialogElement).close();
      (document.getElementById('chat-stop') as HTMLButtonElement | null)?.click();
    });
    if ((await page.$eval('#mode', (el) => (el as HTMLSelectElement).value)) !== 'allow_all') await page.selectOption('#mode', 'allow_all');
  });

  afterAll(async () => {
    await Promise.all(apis.map((a) => a.close()));
    await browser?.close();
    await server?.close();
  });

  it('lets the model list, grep and find in parallel, view and edit a file in the worker, with every event in the panel', async () => {
    expect(await page.$eval('#workspace', (el) => (el as HTMLSelectElement).value)).toBe('example');
    const conversation = await newConversation(page);
    // The storage note names this origin and the endpoint.
    const seen: SeenResult[][] = [];
    const declared: string[][] = [];
    const model = await api([
      (turn) => {
        declared.push(geminiFormat.toolNames(turn.body));
        seen.push(turn.results);
        return { text: 'Let me look around.', calls: [{ name: 'list_dir', args: { dir_path: '.' } }] };
      },
      (turn) => {
        seen.push(turn.results);
        return {
          text: 'Searching two ways at once.',
          calls: [
            { name: 'grep_search', args: { pattern: 'Hello', output_mode: 'files_with_matches' } },
            { name: 'find_file', args: { pattern: '*.ts' } },
          ],
        };
      },
      (turn) => {
        seen.push(turn.results);
        return { calls: [{ name: 'view_file', args: { file_path: 'src/greet.ts' } }] };
      },
      (turn) => {
        seen.push(turn.results);
        return { text: 'Changing the greeting.', calls: [{ name: 'edit_file', args: { file_path: 'src/greet.ts', old_string: 'Hello, ', new_string: 'Hi there, ' } }] };
      },
      (turn) => {
        seen.push(turn.results);
        return { calls: [{ name: 'finish', args: { result: 'greet() now says "Hi there".' } }] };
      },
    ]);

    await configure(page, model.url);
    expect(await page.textContent('#chat-key-note')).toContain(`localStorage for ${new URL(server.url).origin} only`);
    expect(await page.textContent('#chat-key-note')).toContain(`sent only to ${model.url}`);
    await send(page, 'Make greet() say "Hi there".');
    expect(await runEnded(page)).toBe('finished');
    await settled(page);

    // The fake API saw well-formed requests with the key, five of them, and the results in them.
    expect(model.problems).toEqual([]);
    expect(model.requests.map((r) => r.method)).toEqual(['POST', 'POST', 'POST', 'POST', 'POST']);
    expect(model.requests[0]?.headers['x-goog-api-key']).toBe(KEY);
    expect(model.requests[0]?.headers.origin).toBe(new URL(server.url).origin);
    expect(declared[0]).toEqual(expect.arrayContaining(['list_dir', 'grep_search', 'find_file', 'view_file', 'edit_file', 'finish']));
    expect(seen[0]).toEqual([]);
    expect(seen[1]?.[0]?.payload).toMatchObject({ dir_path: '/workspace', entries: expect.arrayContaining([expect.objectContaining({ name: 'src' })]) });
    // The parallel turn: both results in one request, in call order.
    expect(seen[2]?.map((r) => r.name)).toEqual(['grep_search', 'find_file']);
    expect(seen[2]?.[0]?.payload).toMatchObject({ files: expect.arrayContaining(['/workspace/src/greet.ts']) });
    expect(seen[2]?.[1]?.payload).toMatchObject({ files: expect.arrayContaining(['/workspace/src/greet.ts', '/workspace/src/main.ts']) });
    expect((seen[3]?.[0]?.payload as { content: string }).content).toContain('Hello, ${name}!');
    expect(seen[4]?.[0]?.payload).toMatchObject({ file_path: '/workspace/src/greet.ts', replacements: 1 });

    // The panel shows the prompt, the model's text, each call with its result, the finish and the end.
    const kinds = await page.$$eval('#chat-log .chat-entry', (els) => els.map((el) => (el as HTMLElement).dataset.kind));
    expect(kinds).toEqual(['user', 'text', 'tool_call', 'text', 'tool_call', 'tool_call', 'tool_call', 'text', 'tool_call', 'tool_call', 'finish', 'done']);
    const calls = await page.$$eval('#chat-log [data-kind="tool_call"]', (els) => els.map((el) => `${(el as HTMLElement).dataset.tool}:${(el as HTMLElement).dataset.status}`));
    expect(calls).toEqual(['list_dir:ok', 'grep_search:ok', 'find_file:ok', 'view_file:ok', 'edit_file:ok', 'finish:ok']);
    // Results are collapsible JSON.
    const edit = page.locator('#chat-log [data-tool="edit_file"]');
    await edit.locator('summary').first().click();
    await edit.locator('.chat-result summary').click();
    expect(JSON.parse((await edit.locator('.chat-result pre.json').textContent()) ?? 'null')).toMatchObject({ file_path: '/workspace/src/greet.ts', replacements: 1 });
    expect((await events(page, conversation)).map((e) => e.type)).toEqual([
      'text', 'tool_call', 'tool_result',
      'text', 'tool_call', 'tool_call', 'tool_result', 'tool_result',
      'tool_call', 'tool_result',
      'text', 'tool_call', 'tool_result',
      'tool_call', 'tool_result', 'finish', 'done',
    ]);

    // The edit is in the workspace: read back through the tool console, and the tree marks the file.
    const view = await viewThroughConsole(page, 'src/greet.ts');
    expect(view.content).toContain('return `Hi there, ${name}!`;');
    await expect.poll(() => page.$('#tree button.file.changed[data-path="/workspace/src/greet.ts"]')).not.toBeNull();
    // The file view shows it too; the screenshot has the chat next to the edited file.
    await page.click('#tree button[data-path="/workspace/src/greet.ts"]');
    await expect.poll(() => page.textContent('#viewer')).toContain('Hi there, ${name}!');
    await showTab(page, 'chat');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'chat.png') });
    // The chat's calls are in the conversation's history, as the console's are.
    await showTab(page, 'history');
    await expect.poll(() => page.$$eval('#history li', (els) => els.map((el) => (el as HTMLElement).dataset.tool))).toEqual(['view_file', 'finish', 'edit_file', 'view_file', 'find_file', 'grep_search', 'list_dir']);
  }, 120_000);

  it('shows the tool profile of the chosen model: anthropic, openai on api.openai.com, toolhost for a local server and for Gemini', async () => {
    await showTab(page, 'chat');
    const profile = (): Promise<string | null> => page.textContent('#chat-profile');
    await page.selectOption('#chat-provider', 'anthropic');
    await expect.poll(profile).toBe('Tool profile: anthropic (str_replace_based_edit_tool, bash, finish).');
    await page.selectOption('#chat-provider', 'openai');
    await page.fill('#chat-base-url', 'https://api.openai.com/v1');
    await expect.poll(profile).toBe('Tool profile: openai (apply_patch, shell, finish).');
    await page.fill('#chat-base-url', 'http://127.0.0.1:11434/v1');
    await expect.poll(profile).toBe('Tool profile: toolhost (view_file, edit_file, grep_search, run_command, web_fetch, ..., finish).');
    await configure(page, 'http://127.0.0.1:9/');
    await expect.poll(profile).toBe(
      "Tool profile: toolhost (view_file, edit_file, grep_search, run_command, web_fetch, ..., finish): Gemini CLI's tool set shares names with toolhost's (grep_search, web_fetch), so this workspace's runner cannot host both.",
    );
  });

  it('shows an error from the server with its code and message (400, bad key), after one request', async () => {
    await newConversation(page);
    const model = await api([{ status: 400, body: geminiFormat.error(400, 'API key not valid. Please pass a valid API key.') }]);
    await configure(page, model.url);
    await send(page, 'Hello?');
    expect(await runEnded(page)).toBe('error');
    const error = page.locator('#chat-log [data-kind="error"]');
    expect(await error.getAttribute('data-code')).toBe('bad_request');
    expect(await error.locator('.code-badge').textContent()).toBe('bad_request');
    expect(await error.locator('.error-message').textContent()).toBe('Gemini API error 400: API key not valid. Please pass a valid API key.');
    expect(await error.getAttribute('role')).toBe('alert');
    expect(model.requests).toHaveLength(1);
    // The key stays in this origin's localStorage, and nowhere else on the page.
    const stored = await page.evaluate(() => localStorage.getItem('playground:chat:settings') ?? '');
    expect(JSON.parse(stored)).toMatchObject({ provider: 'gemini', providers: { gemini: { baseUrl: model.url, model: MODEL, apiKey: KEY } } });
    await page.locator('#chat-panel').screenshot({ path: join(SHOTS, 'chat-error.png') });
  }, 60_000);

  it('Stop ends the run while the model is answering: no further model request or tool call', async () => {
    const conversation = await newConversation(page);
    const model = await api([
      { calls: [{ name: 'list_dir', args: { dir_path: '.' } }] },
      // Answers slowly: Stop comes first, so this create_file never runs.
      { status: 200, delayMs: 3000, body: geminiFormat.encode({ calls: [{ name: 'create_file', args: { file_path: 'stopped.txt', content: 'should not exist' } }] }, 1, MODEL) },
      { calls: [{ name: 'finish', args: { result: 'never' } }] },
    ]);
    await configure(page, model.url);
    await send(page, 'Look around, then write stopped.txt.');
    await page.locator('#chat-log [data-tool="list_dir"][data-status="ok"]').waitFor({ timeout: 30_000 });
    await model.waitForRequests(2);
    expect(await page.isEnabled('#chat-stop')).toBe(true);
    await page.click('#chat-stop');
    expect(await runEnded(page)).toBe('cancelled');
    expect(await page.isEnabled('#chat-send')).toBe(true);
    // Past the slow answer: nothing more was asked or run.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(model.requests).toHaveLength(2);
    expect(await page.$$eval('#chat-log [data-kind="tool_call"]', (els) => els.map((el) => (el as HTMLElement).dataset.tool))).toEqual(['list_dir']);
    expect((await events(page, conversation)).map((e) => e.type)).toEqual(['tool_call', 'tool_result', 'done']);
    expect((await viewThroughConsole(page, 'stopped.txt')).code).toBe('not_found');
  }, 60_000);

  it('runs the model’s calls with the playground’s permission mode: ask mode shows the dialog, Deny refuses', async () => {
    await newConversation(page);
    await page.selectOption('#mode', 'ask');
    const seen: SeenResult[][] = [];
    const model = await api([
      { calls: [{ name: 'create_file', args: { file_path: 'asked.txt', content: 'hi' } }] },
      (turn) => {
        seen.push(turn.results);
        return { text: 'Understood, I will not write it.' };
      },
    ]);
    await configure(page, model.url);
    await send(page, 'Write asked.txt.');
    await page.waitForSelector('#ask-dialog[open]', { timeout: 30_000 });
    expect(await page.textContent('#ask-text')).toContain('create_file');
    await page.click('#ask-deny');
    const reason = await runEnded(page);
    expect(reason, `${await page.textContent('#chat-log')} ${model.problems.join('; ')}`).toBe('no_tool_calls');
    expect(await page.getAttribute('#chat-log [data-tool="create_file"]', 'data-code')).toBe('permission_denied');
    expect(await page.textContent('#chat-log [data-tool="create_file"] .code-badge')).toBe('permission_denied');
    expect(seen[0]?.[0]).toMatchObject({ name: 'create_file', isError: true });
    expect(model.problems).toEqual([]);
  }, 60_000);

  it('has no serious or critical axe-core violations in the chat panel', async () => {
    await showTab(page, 'chat');
    // A transcript with entries of every kind: the first conversation's (calls, results, finish).
    await page.selectOption('#conversation', 'chat-2');
    await expect.poll(() => page.$$eval('#chat-log .chat-entry', (els) => els.length)).toBeGreaterThan(5);
    await page.locator('#chat-log [data-tool="view_file"] summary').first().click();
    const violations = await axeViolations(page, '#chat-panel');
    const problems = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    expect(problems, problems.join('\n')).toEqual([]);
    // Only the expected failed request (the 400) was logged.
    expect(browser.errors.filter((e) => !e.includes('favicon') && !e.includes('404') && !e.includes('status of 400'))).toEqual([]);
  }, 60_000);
});
