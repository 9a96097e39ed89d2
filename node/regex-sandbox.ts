import vm from 'node:vm';
import { ToolError } from '../src/core/errors.js';
import { regexErrorMessage, scanRegexTexts } from '../src/search/regex.js';
import type { RegexSandbox, RegexScanRequest } from '../src/core/types.js';

interface SandboxContext {
  __request?: RegexScanRequest;
}

/**
 * A {@link RegexSandbox} whose matching runs in a `node:vm` context with a timeout, so a catastrophic
 * pattern (`(a+)+$` over a long line) is interrupted: V8 terminates the script when `timeoutMs` passes
 * and the scan rejects with ToolError `timeout`; the context stays usable for the next call.
 * Pass it as `regex` to a platform (`createMemoryPlatform({ regex: createVmRegexSandbox() })`); grep
 * then splits its work into budgeted slices (see `scanWithBudget`). One `scan` handles many texts in one
 * vm call: a call with a timeout costs ≈ 0.2 ms (V8 starts a watchdog thread), so never one per line.
 * Texts are shared with the context, not copied. The context is created on the first scan.
 * Errors: `timeout`; `invalid_pattern` with the engine's message.
 */
export function createVmRegexSandbox(): RegexSandbox {
  let context: (vm.Context & SandboxContext) | undefined;
  let script: vm.Script | undefined;

  const setup = (): { context: vm.Context & SandboxContext; script: vm.Script } => {
    if (!context || !script) {
      context = vm.createContext({}, { codeGeneration: { strings: false, wasm: false } }) as vm.Context &
        SandboxContext;
      // The scanner's own source text, compiled inside the context (it refers to nothing outside itself).
      new vm.Script(`globalThis.__scan = ${scanRegexTexts.toString()};`).runInContext(context);
      script = new vm.Script(
        '__scan(__request.source, __request.flags, __request.texts, __request.maxMatchesPerText, Infinity)',
      );
    }
    return { context, script };
  };

  return {
    async scan(request: RegexScanRequest): Promise<Array<Array<[number, number]>>> {
      const { context: ctx, script: run } = setup();
      const timeout = Math.max(1, Math.ceil(request.timeoutMs));
      ctx.__request = request;
      try {
        return run.runInContext(ctx, { timeout }) as Array<Array<[number, number]>>;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
          throw new ToolError(
            'timeout',
            `the regular expression did not finish within ${timeout} ms (catastrophic backtracking?)`,
          );
        }
        // Errors thrown inside the context belong to its realm: instanceof Error fails, so read fields.
        throw new ToolError('invalid_pattern', regexErrorMessage(error, request.source));
      } finally {
        ctx.__request = undefined;
      }
    },
  };
}
