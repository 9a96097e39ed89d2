/**
 * The `toolhost` command (issue 5 item 5; SPEC §7 "node"): the built-in tools on a real directory, from
 * a shell or another process. The package `bin` (`bin/toolhost.mjs`) calls {@link main} with
 * `process.argv.slice(2)` and exits with the code it returns.
 *
 * ```sh
 * toolhost call <tool> '<json args>' [--root DIR] [--state-dir DIR] [--timeout MS]
 * toolhost run [--root DIR] [--state-dir DIR] [--timeout MS] < calls.jsonl
 * toolhost tools
 * ```
 *
 * Exit codes (also in `toolhost --help`):
 * - 0: success; for `run`, end of input reached — failed calls and bad lines are reported on stdout
 *   as result lines and do not change the exit code.
 * - 1: `call` only: the tool call failed (the printed object has `error` and `code`).
 * - 2: usage error: unknown command or option, missing tool name, arguments that are not a JSON object,
 *   a bad `--timeout`, a `--root` that is not an existing directory. The message goes to stderr.
 * - 130: interrupted by SIGINT/SIGTERM; calls in flight end as `cancelled` and are still printed.
 *
 * Built with `createNodePlatform({ root, stateDir })` and `BuiltinTools.all()`; `web_search` /
 * `google_search` reach the runner's search fallback. Nothing runs at import time.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ToolRunner, type ToolCall, type ToolCallResult } from '../src/core/runner.js';
import { BuiltinTools } from '../src/tools/index.js';
import type { Platform } from '../src/core/types.js';
import { createNodePlatform } from './platform.js';

/** Exit codes of {@link main}, as documented in the usage text. */
export const CLI_EXIT = { ok: 0, callFailed: 1, usage: 2, interrupted: 130 } as const;

/** The streams and settings {@link main} uses; every member defaults to the real process's. */
export interface CliIo {
  /** Source of `run`'s JSON lines (default `process.stdin`). */
  stdin?: NodeJS.ReadableStream;
  /** Where results go (default `process.stdout`). */
  stdout?: NodeJS.WritableStream;
  /** Where usage errors go (default `process.stderr`). */
  stderr?: NodeJS.WritableStream;
  /** Directory that `--root` and `--state-dir` resolve against, and the default root (default `process.cwd()`). */
  cwd?: string;
  /** Aborting it interrupts the command like SIGINT (exit 130). */
  signal?: AbortSignal;
  /** Install SIGINT/SIGTERM handlers that interrupt the command (default true). */
  handleSignals?: boolean;
}

/** The `toolhost --help` text: commands, options, the `run` line format and the exit codes. */
export const USAGE = `Usage: toolhost <command> [options]

Run toolhost's built-in tools (view_file, create_file, edit_file, run_command, ...) on a directory.

Commands:
  call <tool> ['<json args>']  Run one tool call and print { "name", "result" } or
                               { "name", "error", "code" } as JSON. Args default to {}.
  run                          Read tool calls from stdin, one JSON object per line:
                                 {"id":"1","name":"view_file","args":{"file_path":"a.txt"}}
                               Write one JSON result line per call, in input order, one call at a
                               time, ids echoed. A line that is not a valid call gives
                                 {"line":N,"error":"...","code":"invalid_arguments"}
                               and the rest go on. Blank lines are ignored.
  tools                        Print the tool declarations (name, description, parameters) as JSON.
  help                         Print this text.

Options:
  --root DIR        Workspace directory (default: the current directory). Tools cannot read or
                    write outside it: such a path gives the code outside_workspace.
  --state-dir DIR   Keep tool state as files in DIR across runs (default: in memory, this run only).
  --timeout MS      Deadline of each call in milliseconds (default: none); a late call ends with
                    the code timeout.
  -h, --help        Print this text.
  --version         Print the version.

Exit codes:
  0    success; for run: end of input reached (failed calls and bad lines are reported as
       result lines and do not change the exit code)
  1    call: the tool call failed (the printed object has "error" and "code")
  2    usage error (unknown command or option, missing tool name, arguments that are not a JSON
       object, bad --timeout, --root not an existing directory); message on stderr
  130  interrupted (SIGINT/SIGTERM); calls in flight end as cancelled

Examples:
  toolhost call view_file '{"file_path":"README.md","end_line":20}'
  toolhost call run_command '{"command":"ls -la"}' --root ./project
  printf '%s\\n' '{"id":"1","name":"list_dir","args":{"dir_path":"."}}' | toolhost run
`;

class UsageError extends Error {}

interface Parsed {
  command: string | undefined;
  positionals: string[];
  root: string | undefined;
  stateDir: string | undefined;
  timeoutMs: number | undefined;
  help: boolean;
  version: boolean;
}

function parse(argv: readonly string[]): Parsed {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        root: { type: 'string' },
        'state-dir': { type: 'string' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; see toolhost --help`);
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const text = String(values.timeout);
    timeoutMs = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
      throw new UsageError(`--timeout must be a positive whole number of milliseconds, got "${text}"`);
    }
  }
  return {
    command: positionals[0],
    positionals: positionals.slice(1),
    root: values.root as string | undefined,
    stateDir: values['state-dir'] as string | undefined,
    timeoutMs,
    help: values.help === true,
    version: values.version === true,
  };
}

/** The package version, from the nearest package.json named toolhost above this module (src or dist). */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i += 1) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'toolhost' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: look one level up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}

/** Writes and waits until the stream accepted the chunk, so a slow reader applies back-pressure. */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((done) => {
    stream.write(text, () => done());
  });
}

/** Parses `call`'s JSON arguments; anything but an object is a usage error. */
function parseCallArgs(tool: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `the arguments of ${tool} are not valid JSON (${(error as Error).message}); ` +
        `quote them as one shell word, e.g. toolhost call ${tool} '{"file_path":"a.txt"}'`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`the arguments of ${tool} must be a JSON object, e.g. '{"file_path":"a.txt"}'; see toolhost tools`);
  }
  return value as Record<string, unknown>;
}

/** One `run` input line → a call, or the error line to print for it. */
function parseLine(text: string, line: number): { call: ToolCall; id: unknown } | { error: Record<string, unknown> } {
  const fail = (message: string, id?: unknown): { error: Record<string, unknown> } => ({
    error: { line, ...(id === undefined ? {} : { id }), error: message, code: 'invalid_arguments' },
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`line ${line} is not valid JSON (${(error as Error).message}); send one object per line: {"id":"1","name":"view_file","args":{...}}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`line ${line} must be a JSON object {"id":"1","name":"view_file","args":{...}}`);
  }
  const { id, name, args } = value as { id?: unknown; name?: unknown; args?: unknown };
  const idOk = id === undefined || typeof id === 'string' || typeof id === 'number';
  if (!idOk) return fail(`line ${line}: "id" must be a string or a number`);
  if (typeof name !== 'string' || name === '') return fail(`line ${line} has no tool "name"; see toolhost tools`, id);
  const call: ToolCall = { name, args: args ?? {} };
  if (id !== undefined) call.id = String(id);
  return { call, id };
}

/** The result with the caller's id as given (a number stays a number), id first. */
function echoId(result: ToolCallResult, id: unknown): Record<string, unknown> {
  const { id: _ignored, ...rest } = result;
  return id === undefined ? rest : { id, ...rest };
}

/**
 * Runs the `toolhost` command line (`argv` without node and the script) and resolves with the exit
 * code: 0 success, 1 failed `call`, 2 usage error, 130 interrupted (see {@link USAGE}). Never rejects
 * for a bad input; writes results to `io.stdout` and usage errors to `io.stderr`. Disposes its platform
 * (killing leftover `run_command` process groups) before it resolves.
 */
export async function main(argv: readonly string[], io: CliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const cwd = io.cwd ?? process.cwd();

  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    await write(stderr, `toolhost: ${(error as Error).message}\n`);
    return CLI_EXIT.usage;
  }
  if (parsed.help || parsed.command === 'help') {
    await write(stdout, USAGE);
    return CLI_EXIT.ok;
  }
  if (parsed.version) {
    await write(stdout, `${version()}\n`);
    return CLI_EXIT.ok;
  }

  const usage = async (message: string): Promise<number> => {
    await write(stderr, `toolhost: ${message}\n`);
    return CLI_EXIT.usage;
  };
  const { command, positionals } = parsed;
  if (command === undefined) {
    await write(stderr, USAGE);
    return CLI_EXIT.usage;
  }
  if (command !== 'call' && command !== 'run' && command !== 'tools') {
    return usage(`unknown command "${command}"; use call, run or tools (toolhost --help)`);
  }
  if (command === 'call' && positionals.length === 0) {
    return usage(`call needs a tool name, e.g. toolhost call view_file '{"file_path":"a.txt"}'; toolhost tools lists them`);
  }
  const maxPositionals = command === 'call' ? 2 : 0;
  if (positionals.length > maxPositionals) {
    const extra = positionals.slice(maxPositionals).join(' ');
    return usage(
      command === 'call'
        ? `unexpected "${extra}": quote the JSON arguments as one shell word, e.g. '{"file_path":"a b.txt"}'`
        : `${command} takes no arguments, got "${extra}" (toolhost --help)`,
    );
  }

  let callArgs: Record<string, unknown> = {};
  if (command === 'call') {
    try {
      callArgs = parseCallArgs(positionals[0] as string, positionals[1]);
    } catch (error) {
      return usage((error as Error).message);
    }
  }

  let platform: Platform;
  try {
    platform = createNodePlatform({
      root: resolve(cwd, parsed.root ?? '.'),
      ...(parsed.stateDir === undefined ? {} : { stateDir: resolve(cwd, parsed.stateDir) }),
    });
  } catch (error) {
    return usage(`--root: ${(error as Error).message}`);
  }

  const interrupt = new AbortController();
  const onSignal = (): void => interrupt.abort(new Error('interrupted'));
  const onOuterAbort = (): void => interrupt.abort(io.signal?.reason);
  if (io.signal?.aborted) onOuterAbort();
  io.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const handleSignals = io.handleSignals ?? true;
  if (handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // A closed pipe (`toolhost run | head -1`) is not a crash: reading stops, the exit code is kept.
  const outputClosed = new AbortController();
  const onStdoutError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') throw error;
    outputClosed.abort();
  };
  stdout.on('error', onStdoutError);

  try {
    const runner = new ToolRunner({
      platform,
      tools: BuiltinTools.all(),
      ...(parsed.timeoutMs === undefined ? {} : { defaultTimeoutMs: parsed.timeoutMs }),
    });
    const options = { signal: interrupt.signal };

    if (command === 'tools') {
      await write(stdout, `${JSON.stringify(runner.declarations(), null, 2)}\n`);
      return CLI_EXIT.ok;
    }

    if (command === 'call') {
      const name = positionals[0] as string;
      const [result] = await runner.processToolCalls([{ name, args: callArgs }], options);
      await write(stdout, `${JSON.stringify(result, null, 2)}\n`);
      if (interrupt.signal.aborted) return CLI_EXIT.interrupted;
      return result && 'code' in result ? CLI_EXIT.callFailed : CLI_EXIT.ok;
    }

    // run: one call at a time, in input order, so result lines match input lines.
    const lines = createInterface({ input: io.stdin ?? process.stdin, crlfDelay: Infinity, terminal: false });
    const stop = (): void => lines.close();
    interrupt.signal.addEventListener('abort', stop, { once: true });
    outputClosed.signal.addEventListener('abort', stop, { once: true });
    let lineNumber = 0;
    try {
      for await (const text of lines) {
        lineNumber += 1;
        if (text.trim() === '') continue;
        const parsedLine = parseLine(text, lineNumber);
        if ('error' in parsedLine) {
          await write(stdout, `${JSON.stringify(parsedLine.error)}\n`);
          continue;
        }
        const [result] = await runner.processToolCalls([parsedLine.call], options);
        await write(stdout, `${JSON.stringify(echoId(result as ToolCallResult, parsedLine.id))}\n`);
        if (interrupt.signal.aborted || outputClosed.signal.aborted) break;
      }
    } finally {
      interrupt.signal.removeEventListener('abort', stop);
      outputClosed.signal.removeEventListener('abort', stop);
      lines.close();
    }
    return interrupt.signal.aborted ? CLI_EXIT.interrupted : CLI_EXIT.ok;
  } finally {
    if (handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    io.signal?.removeEventListener('abort', onOuterAbort);
    stdout.off('error', onStdoutError);
    await platform.dispose();
  }
}
