// RegexSandboxes (toolhost's `platform.regex`) that can stop a catastrophic pattern such as `(a+)+$`:
// the scan runs in a dedicated worker that is terminated when it overruns its slice, so grep's budget,
// deadline and Cancel work while it runs. Chromium cannot start a worker inside a SharedWorker, and a
// page cannot end a SharedWorker, so there the tool worker hands each scan to a tab (`delegated`),
// which runs it in a worker of its own (`createWorkerRegexSandbox`).
import { scanRegexTexts, ToolError, type RegexSandbox, type RegexScanRequest } from 'toolhost';

export type RegexAnswer = { matches: Array<Array<[number, number]>> } | { error: string; code: 'invalid_pattern' | 'timeout' };

/** A sandbox backed by a dedicated worker, or undefined where this thread cannot start workers. */
export function createWorkerRegexSandbox(): RegexSandbox | undefined {
  if (typeof Worker !== 'function') return undefined;
  let worker: Worker | undefined;
  let next = 0;
  const start = (): Worker => (worker ??= new Worker(new URL('./regex-worker.ts', import.meta.url), { type: 'module' }));
  return {
    scan(request: RegexScanRequest): Promise<Array<Array<[number, number]>>> {
      const id = (next += 1);
      const current = start();
      return new Promise((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          current.removeEventListener('message', onMessage);
        };
        const onMessage = (event: MessageEvent<{ id: number; matches?: Array<Array<[number, number]>>; error?: string }>): void => {
          if (event.data.id !== id) return;
          done();
          if (event.data.error !== undefined) reject(new ToolError('invalid_pattern', event.data.error));
          else resolve(event.data.matches ?? []);
        };
        const timer = setTimeout(() => {
          done();
          // The only way to stop a running RegExp: end its thread. The next scan starts a fresh one.
          current.terminate();
          if (worker === current) worker = undefined;
          reject(new ToolError('timeout', `the regular expression did not finish within ${request.timeoutMs} ms`));
        }, request.timeoutMs);
        current.addEventListener('message', onMessage);
        current.postMessage({ id, source: request.source, flags: request.flags, texts: request.texts, maxMatchesPerText: request.maxMatchesPerText });
      });
    },
  };
}

/** Runs a scan with a sandbox and turns the outcome into a cloneable answer. */
export async function answerScan(sandbox: RegexSandbox, request: RegexScanRequest): Promise<RegexAnswer> {
  try {
    return { matches: await sandbox.scan(request) };
  } catch (error) {
    const code = (error as { code?: unknown }).code === 'timeout' ? 'timeout' : 'invalid_pattern';
    return { error: (error as Error).message, code };
  }
}

/**
 * A sandbox that sends each scan to a helper (a tab) through `send` and waits for `resolveScan`.
 * A helper that does not answer within the slice plus 2 s is dropped (its tab is gone) and the scan
 * fails with `timeout`, which grep retries. With no helper left it scans in this thread.
 */
export function createDelegatedRegexSandbox<Helper>(send: (helper: Helper, id: string, request: RegexScanRequest) => void): {
  sandbox: RegexSandbox;
  addHelper(helper: Helper): void;
  resolveScan(id: string, answer: RegexAnswer): boolean;
} {
  const helpers: Helper[] = [];
  const pending = new Map<string, (answer: RegexAnswer) => void>();
  let next = 0;
  const sandbox: RegexSandbox = {
    async scan(request) {
      const helper = helpers[helpers.length - 1];
      if (helper === undefined) {
        try {
          return scanRegexTexts(request.source, request.flags, request.texts, request.maxMatchesPerText, Infinity);
        } catch (error) {
          throw new ToolError('invalid_pattern', (error as Error).message);
        }
      }
      const id = `scan-${(next += 1)}`;
      const answer = await new Promise<RegexAnswer>((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          const at = helpers.indexOf(helper);
          if (at >= 0) helpers.splice(at, 1);
          resolve({ error: `the regular expression did not finish within ${request.timeoutMs} ms`, code: 'timeout' });
        }, request.timeoutMs + 2000);
        pending.set(id, (value) => {
          clearTimeout(timer);
          resolve(value);
        });
        send(helper, id, request);
      });
      if ('matches' in answer) return answer.matches;
      throw new ToolError(answer.code, answer.error);
    },
  };
  return {
    sandbox,
    addHelper: (helper) => void helpers.push(helper),
    resolveScan(id, answer) {
      const resolve = pending.get(id);
      if (!resolve) return false;
      pending.delete(id);
      resolve(answer);
      return true;
    },
  };
}
