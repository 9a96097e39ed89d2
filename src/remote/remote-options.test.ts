import { afterEach, describe, expect, it } from 'vitest';
import { connectToolRunner, exposeToolRunner, type Endpoint, type RemoteToolRunner } from './remote.js';
import { ToolRunner } from '../runner.js';
import { defineTool } from '../core/tool.js';
import { rejectionOf } from '../../test/support/type-errors.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function connect(): { remote: RemoteToolRunner; runs: () => number } {
  let count = 0;
  const { port1, port2 } = new MessageChannel();
  exposeToolRunner(
    () => new ToolRunner({ tools: [defineTool({ name: 'tick', description: 'counts', inputSchema: { type: 'object' }, execute: () => (count += 1) })] }),
    port2 as unknown as Endpoint,
  );
  const remote = connectToolRunner(port1 as unknown as Endpoint);
  cleanups.push(async () => {
    await remote.terminate();
    port1.close();
    port2.close();
  });
  return { remote, runs: () => count };
}

describe('connectToolRunner options', () => {
  it('throws a TypeError naming a bad option, the value and what is accepted', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ defaultTimeoutMs: -1 }, 'defaultTimeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not -1'],
      [{ graceMs: 0 }, 'graceMs must be a finite positive number of milliseconds, not 0'],
      [{ startupTimeoutMs: Infinity }, 'startupTimeoutMs must be a finite positive number of milliseconds, not Infinity'],
      [{ controlTimeoutMs: '10' }, 'controlTimeoutMs must be a finite positive number of milliseconds, not "10"'],
      [{ terminate: true }, 'terminate must be a function, not true'],
      [{ onRestart: {} }, 'onRestart must be a function, not {}'],
    ];
    const { port1 } = new MessageChannel();
    cleanups.push(() => port1.close());
    for (const [options, message] of cases) {
      expect(() => connectToolRunner(port1 as unknown as Endpoint, options), JSON.stringify(options)).toThrow(new TypeError(`connectToolRunner: ${message}`));
    }
  });

  it('rejects execute and processToolCalls with bad per-call options as the runner does, sending nothing', async () => {
    const { remote, runs } = connect();
    expect((await rejectionOf(remote.execute('tick', {}, { timeoutMs: -1 }))).message).toBe(
      'RemoteToolRunner.execute: timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not -1',
    );
    expect((await rejectionOf(remote.execute('tick', {}, { signal: {} as AbortSignal }))).message).toBe('RemoteToolRunner.execute: signal must be an AbortSignal, not {}');
    expect((await rejectionOf(remote.processToolCalls([{ name: 'tick', args: {} }], { timeoutMs: Number.NaN }))).message).toBe(
      'RemoteToolRunner.processToolCalls: timeoutMs must be a positive number of milliseconds, or Infinity for no deadline, not NaN',
    );
    expect(runs()).toBe(0);
    expect(await remote.execute('tick', {}, { timeoutMs: 5_000 })).toBe(1);
  });

  it('setPermissions refuses a malformed policy before it reaches the worker', async () => {
    const { remote } = connect();
    await expect(remote.setPermissions({ allow: 5 } as never)).rejects.toThrow(
      new TypeError('setPermissions: policy.allow must be an array of tool-name patterns (strings such as "deploy_*"), not 5'),
    );
  });
});
