import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
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

/**
 * A TCP proxy between a test's Redis clients and its redis-server, that loses what a test tells it
 * to: the connection dies with a command or a reply in flight, as when Redis or the network fails
 * at that moment, but chosen exactly.
 */
export interface FaultyProxy {
  /** `redis://127.0.0.1:<proxy port>`. */
  readonly url: string;
  /** The next reply from Redis is dropped and every connection cut: the command ran, its sender never hears. */
  loseNextReply(): void;
  /** The next command from a client is dropped and every connection cut: it never reaches Redis. */
  loseNextCommand(): void;
  /** While down, every new connection is closed as soon as it opens (Redis looks down); open ones stay. */
  setDown(down: boolean): void;
  /** Connections accepted so far (the clients' reconnects show here). */
  readonly accepted: number;
  close(): Promise<void>;
}

/** Starts a {@link FaultyProxy} on a free 127.0.0.1 port in front of `target`. */
export async function startFaultyProxy(target: { port: number }): Promise<FaultyProxy> {
  const sockets = new Set<Socket>();
  let loseReply = false;
  let loseCommand = false;
  let down = false;
  let accepted = 0;
  const cutAll = (): void => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const server = createServer((client) => {
    accepted += 1;
    if (down) return void client.destroy();
    const upstream = connect(target.port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk: Buffer) => {
      if (loseCommand) {
        loseCommand = false;
        return cutAll();
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (loseReply) {
        loseReply = false;
        return cutAll();
      }
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    loseNextReply: () => void (loseReply = true),
    loseNextCommand: () => void (loseCommand = true),
    setDown: (value) => void (down = value),
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        cutAll();
        server.close(() => resolve());
      }),
  };
}
