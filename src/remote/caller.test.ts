import { afterEach, describe, expect, it } from 'vitest';
import { expose, wrap } from 'comlink';
import { workerCaller, type WorkerCaller } from './caller.js';
import type { Endpoint } from './protocol.js';

// The page's requests are comlink's own messages, so a worker serving with comlink's `expose` answers
// them; the other end of a web-standard MessageChannel stands in for the worker.

const ports: MessagePort[] = [];

afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

/** A caller on one end of a channel whose other end serves `api` with comlink's expose. */
function served(api: Record<string, unknown>): { caller: WorkerCaller; host: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  expose(api, port2 as unknown as Endpoint);
  const caller = workerCaller(port1 as unknown as Endpoint);
  port1.addEventListener('message', (event) => caller.receive(event.data));
  port1.start();
  return { caller, host: port1 };
}

describe('workerCaller', () => {
  it('sends comlink requests that comlink expose answers: the argument arrives, the answer resolves', async () => {
    const seen: unknown[] = [];
    const { caller } = served({
      execute: (request: unknown) => {
        seen.push(request);
        return { ok: true, value: 42 };
      },
      ping: () => 'pong',
    });
    await expect(caller.methods.execute({ name: 'noop', args: { n: 1 } })).resolves.toEqual({ ok: true, value: 42 });
    await expect(caller.methods.ping()).resolves.toBe('pong');
    expect(seen).toEqual([{ name: 'noop', args: { n: 1 } }]);
  });

  it('rejects with the error a worker method threw, as comlink wrap does', async () => {
    const { caller } = served({
      tools: () => {
        throw new RangeError('the worker broke');
      },
    });
    const error = await caller.methods.tools().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('the worker broke');
  });

  it('rejects at once with DataCloneError for arguments that cannot be cloned, leaving nothing pending', async () => {
    const { caller } = served({ execute: () => ({ ok: true, value: null }) });
    const error = await caller.methods.execute({ name: 'x', args: { f: () => 1 } }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect((error as { name?: unknown }).name).toBe('DataCloneError');
    // The next call still gets its own answer.
    await expect(caller.methods.execute({ name: 'x', args: {} })).resolves.toEqual({ ok: true, value: null });
  });

  it('claims only answers to its own requests: notices and another comlink client on the endpoint pass by', async () => {
    const { caller, host } = served({ hello: () => ({ ok: true, value: { tools: 3 } }), unregister: (name: string) => ({ ok: true, value: name === 'a' }) });
    expect(caller.receive({ toolhost: 'ready' })).toBe(false);
    expect(caller.receive({ id: 'not-ours', type: 'RAW', value: 1 })).toBe(false);
    expect(caller.receive(null)).toBe(false);
    const other = wrap<{ hello(): Promise<unknown> }>(host as unknown as Endpoint);
    const [mine, theirs] = await Promise.all([caller.methods.unregister('a'), other.hello()]);
    expect(mine).toEqual({ ok: true, value: true });
    expect(theirs).toEqual({ ok: true, value: { tools: 3 } });
  });

  it('forgets pending requests on clear: a late answer is not claimed', async () => {
    const answers: ((value: unknown) => void)[] = [];
    const { caller } = served({ declarations: () => new Promise((resolve) => answers.push(resolve)), ping: () => 'pong' });
    const settled: unknown[] = [];
    void caller.methods.declarations().then((value) => settled.push(value));
    await expect.poll(() => answers.length).toBe(1);
    caller.clear();
    answers[0]!({ ok: true, value: [] });
    // Answers keep their order: once a later request's answer is in, the forgotten one has come and gone.
    await expect(caller.methods.ping()).resolves.toBe('pong');
    expect(settled).toEqual([]);
  });
});
