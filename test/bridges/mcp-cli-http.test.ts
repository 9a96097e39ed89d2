import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '..', '..');
const BIN = join(REPO, 'bin', 'toolhost.mjs');

describe('toolhost mcp --http', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolhost-mcp-cli-http-'));
    writeFileSync(join(dir, 'a.txt'), 'over http\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves Streamable HTTP on the address given, refuses calls without the token, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', dir, '--http', '127.0.0.1:0', '--token', 't0k', '--read-only'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let stderr = '';
    const url = await new Promise<URL>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
        if (match) resolve(new URL(match[1] as string));
      });
      child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    const refused = await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(401);
    await refused.body?.cancel();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: 'Bearer t0k' } } }));
    const view = await client.callTool({ name: 'view_file', arguments: { file_path: 'a.txt' } });
    expect((view.structuredContent as { content: string }).content).toBe('over http');
    const create = await client.callTool({ name: 'create_file', arguments: { file_path: 'b.txt', content: 'no' } });
    expect((create.structuredContent as { code: string }).code).toBe('permission_denied');
    await client.close();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
