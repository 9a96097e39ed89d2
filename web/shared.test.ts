import { afterEach, describe, expect, it } from 'vitest';
import { connectToolRunner, type Endpoint, type RemoteToolRunner } from '../src/remote/remote.js';
import { ToolRunner } from '../src/runner.js';
import { defineTool } from '../src/core/tool.js';
import { exposeSharedToolRunner, type SharedWorkerScopeLike } from './shared.js';

// A SharedWorker's scope in this thread: each "tab" connects with one end of a MessageChannel.
function fakeScope(): SharedWorkerScopeLike & { connect(): MessagePort } {
  const listeners: Array<(event: MessageEvent) => void> = [];
  return {
    addEventListener: (_type, listener) => void listeners.push(listener),
    connect() {
      const { port1, port2 } = new MessageChannel();
      for (const listener of listeners) listener({ ports: [port2] } as unknown as MessageEvent);
      return port1;
    },
  };
}

const remotes: RemoteToolRunner[] = [];
afterEach(async () => {
  await Promise.all(remotes.splice(0).map((remote) => remote.terminate()));
});

describe('exposeSharedToolRunner', () => {
  it('forgets a tab that left, and keeps serving the others', async () => {
    const scope = fakeScope();
    const shared = exposeSharedToolRunner(
      ({ onMessage }) =>
        new ToolRunner({
          onMessage,
          tools: [defineTool({ name: 'ping', description: '', inputSchema: { type: 'object' }, execute: async (_input, ctx) => (await ctx.send('hi'), 'pong') })],
        }),
      scope,
    );
    const first = connectToolRunner(scope.connect() as unknown as Endpoint);
    const second = connectToolRunner(scope.connect() as unknown as Endpoint);
    remotes.push(second);
    const heard: string[] = [];
    second.onMessage(() => void heard.push('second'));
    expect(await first.execute('ping', {})).toBe('pong');
    expect(await second.execute('ping', {})).toBe('pong');
    expect(shared.connections).toBe(2);
    await first.terminate();
    await expect.poll(() => shared.connections).toBe(1);
    expect(await second.execute('ping', {})).toBe('pong');
    expect(heard).toEqual(['second', 'second', 'second']);
    await second.terminate();
    await expect.poll(() => shared.connections).toBe(0);
  });
});
