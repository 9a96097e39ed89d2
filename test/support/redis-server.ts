import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server that a test started on 127.0.0.1, with its own temporary directory. */
export interface TestRedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Its working directory (the append-only file lives here). */
  readonly dir: string;
  readonly pid: number | undefined;
  /** `kill -9`: the server dies at once, keeping only what it had fsynced. */
  kill9(): Promise<void>;
  /** Starts it again on the same port and directory (after `kill9` or `stop`). */
  restart(): Promise<void>;
  /** `kill -STOP` / `kill -CONT`: the server stops answering without closing its connections. */
  pause(): void;
  resume(): void;
  /** Stops it (SIGTERM) and removes its directory. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** `appendonly yes` + `appendfsync always`: every acknowledged write is on disk before the reply. */
  durable?: boolean;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts Debian's `redis-server` on a free 127.0.0.1 port in a fresh temporary directory and resolves
 * once it accepts connections (`Ready to accept connections` on its log). No RDB snapshots; with
 * `durable`, an append-only file fsynced on every write. Fails when redis-server is not installed
 * (`apt-get install redis-server`: .ci/run does it).
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<TestRedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--daemonize', 'no', '--logfile', ''];
  if (options.durable) args.push('--appendonly', 'yes', '--appendfsync', 'always');
  else args.push('--appendonly', 'no');
  let child: ChildProcess | undefined;

  const launch = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const started = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      let log = '';
      const timer = setTimeout(() => {
        started.kill('SIGKILL');
        reject(new Error(`redis-server did not start within 10 s:\n${log}`));
      }, 10_000);
      started.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot run redis-server (${error.message}); install it with apt-get install redis-server`));
      });
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with code ${code}:\n${log}`));
      });
      started.stdout?.on('data', (chunk: Buffer) => {
        if (log.length < 20_000) log += chunk.toString();
        if (log.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.stderr?.on('data', (chunk: Buffer) => {
        if (log.length < 20_000) log += chunk.toString();
      });
    });

  const end = (signal: NodeJS.Signals): Promise<void> =>
    new Promise((resolve) => {
      const current = child;
      if (!current || current.exitCode !== null || current.signalCode !== null) return resolve();
      current.once('exit', () => resolve());
      current.kill(signal);
    });

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get pid() {
      return child?.pid;
    },
    kill9: () => end('SIGKILL'),
    restart: launch,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async stop() {
      child?.kill('SIGCONT');
      await end('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
