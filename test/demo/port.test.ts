import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `npm run demo` is `vite --config demo/vite.config.ts`: the real Vite CLI is started on a free port
// chosen by the test, through PORT or --port, and the playground page is fetched from it.
const ROOT = join(import.meta.dirname, '..', '..');
const VITE = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
const started: ChildProcess[] = [];

/** A port free at the time of asking (the OS picks it; the listener is closed again). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts the demo's dev server; resolves with everything it printed once it exits or says where it listens. */
function startDemo(args: string[], env: Record<string, string>): Promise<{ output: string; exitCode: number | null }> {
  const child = spawn(process.execPath, [VITE, '--config', 'demo/vite.config.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Local:\s+http:\/\/127\.0\.0\.1:\d+/.test(output)) resolve({ output, exitCode: null });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => resolve({ output, exitCode: code }));
  });
}

afterEach(async () => {
  for (const child of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

describe('npm run demo on a port of the user\'s choosing', () => {
  it('serves the playground on PORT', async () => {
    const port = await freePort();
    const { output } = await startDemo([], { PORT: String(port) });
    expect(output).toContain(`http://127.0.0.1:${port}/`);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>toolhost playground</title>');
  }, 60_000);

  it('serves it on --port, which wins over PORT', async () => {
    const port = await freePort();
    const { output } = await startDemo(['--port', String(port)], { PORT: '1' });
    expect(output).toContain(`http://127.0.0.1:${port}/`);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
  }, 60_000);

  it('refuses a PORT that is not a port, naming it', async () => {
    const { output, exitCode } = await startDemo([], { PORT: 'eighty' });
    expect(exitCode).not.toBe(0);
    expect(output).toContain('PORT must be a whole number from 1 to 65535 (the playground\'s port), not "eighty"');
  }, 60_000);
});
