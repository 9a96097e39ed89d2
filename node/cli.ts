/**
 * The `toolhost` command: the built-in tools on a real directory, from
 * a shell or another process. The package `bin` (`bin/toolhost.mjs`) calls {@link main} with
 * `process.argv.slice(2)` and exits with the code it returns.
 *
 * ```sh
 * toolhost call <tool> '<json args>' [--root DIR] [--state-dir DIR] [--timeout MS]
 * toolhost run [--root DIR] [--state-dir DIR] [--timeout MS] [--max-line-bytes N] < calls.jsonl
 * toolhost tools [--profile anthropic|openai|gemini|toolhost] [--tools ./my-tools.js]
 * toolhost mcp --root DIR [--http HOST:PORT [--token-file PATH]] [--profile NAME] [--tools ./my-tools.js] [--read-only] [--state-dir DIR | --state redis://…]
 * toolhost call|run|mcp … --search-index [--search-index-max-bytes SIZE] [--search-index-max-build-bytes SIZE]
 * ```
 *
 * Exit codes (also in `toolhost --help`):
 * - 0: success; for `run`, end of input reached — failed calls and bad lines are reported on stdout
 *   as result lines and do not change the exit code.
 * - 1: `call` only: the tool call failed (the printed object has `error` and `code`).
 * - 2: usage error: unknown command or option, missing tool name, arguments that are not a JSON object,
 *   a bad `--timeout` or search index budget (or one without `--search-index`), a `--root` that is
 *   not an existing directory. The message goes to stderr.
 * - 130: `call` or `run` interrupted by SIGINT/SIGTERM; calls in flight end as `cancelled` and are
 *   still printed. `mcp` (a server) ends with 0 when a signal stops it with every request answered,
 *   and with 130 when requests were unanswered (on stdio, running or still draining after stdin
 *   closed): their calls are aborted and get no answer; the answers written before reach stdout whole.
 *
 * Built with `createNodePlatform({ root, stateDir })`, the built-ins (`BuiltinTools.all()`) or with
 * `--profile NAME` that tool profile (`toolProfiles.byName`), less the tools that need a host hook
 * (see {@link HOOK_ONLY_TOOLS}), then the tools of `--tools` modules; `web_search` / `google_search`
 * reach the runner's search fallback. `mcp` loads the MCP SDK
 * (`@modelcontextprotocol/server`, an optional peer dependency) only when it runs. Nothing runs at import time.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ToolCall, ToolCallResult } from '../src/core/runner.js';
import { ToolRunner } from '../src/runner.js';
import { createToolEntry } from '../src/core/entry.js';
import type { AnyTool } from '../src/core/tool.js';
import { BuiltinTools } from '../src/tools/index.js';
import type { ToolProfileName } from '../src/tools/profiles/index.js';
import type { Platform } from '../src/core/types.js';
import { isAddressEntry } from '../src/core/network.js';
import { createNodePlatform, type NodePlatformOptions } from './platform.js';
import { whenSearchIndexOff } from '../src/search/index/workspace.js';
import { withSearchSourceDefaults } from './search-fs.js';
import type { RedisStateStore } from './redis-state-store.js';
import { DEFAULT_MAX_LINE_BYTES, readLineFrames } from './lines.js';
import { ClientRootsHost, type OpenedRunner } from './client-roots.js';

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
  /** Environment variables; `mcp --http` reads `TOOLHOST_MCP_TOKEN` from it (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The `toolhost --help` text: commands, options, the `run` line format and the exit codes. */
export const USAGE = `Usage: toolhost <command> [options]

Run toolhost's built-in tools (view_file, create_file, edit_file, run_command, ...), or with
--profile a model family's own tools, on a directory. start_subagent, generate_image and finish
are left out: each works through a hook of the program that hosts the tools (one that runs
subagents, makes images, or ends its agent loop on finish), which this command has not.

Commands:
  call <tool> ['<json args>']  Run one tool call and print { "name", "result" } or
                               { "name", "error", "code" } as JSON. Args default to {}.
  run                          Read tool calls from stdin, one JSON object per line:
                                 {"id":"1","name":"view_file","args":{"file_path":"a.txt"}}
                               Write one JSON result line per call, in input order, one call at a
                               time, ids echoed. A line that is not a valid call gives
                                 {"line":N,"error":"...","code":"invalid_arguments"}
                               and the rest go on. Blank lines are ignored. A line longer than
                               --max-line-bytes is skipped unread and answered the same way:
                                 {"line":N,"error":"line N is longer than ...","code":"too_large"}
  tools                        Print the tool declarations (name, description, parameters) as JSON:
                               what call, run and mcp serve with the same --profile and --tools.
  mcp                          Serve the tools as an MCP server: on stdin/stdout (the default, for
                               MCP clients that start the command), or with --http on Streamable
                               HTTP. Ends on SIGINT/SIGTERM, or when stdin closes once the
                               requests received by then are answered (on a signal, the answer
                               being written is finished if the client reads it within 5 s;
                               answers not yet begun are dropped). On stdio a message line
                               longer than --max-line-bytes is answered with a JSON-RPC error
                               (-32600) and skipped; the next message is served.
  help                         Print this text.

Options:
  --root DIR        Workspace directory (default: the current directory; for mcp on stdio, the
                    client's first MCP root when it offers roots). Tools cannot read or
                    write outside it: such a path gives the code outside_workspace.
  --state-dir DIR   Keep tool state as files in DIR across runs (default: in memory, this run only).
  --state URL       Keep tool state in Redis at URL (redis://host:port[/db]), shared by every
                    toolhost process given the same URL and --root; needs the ioredis package.
                    With mcp --http the server is stateless, so N processes behind a load
                    balancer can each take any request: a request names its conversation with
                    the Toolhost-Conversation header (else --conversation, else "default").
  --timeout MS      Deadline of each call in milliseconds (default: none); a late call ends with
                    the code timeout. Without one a call runs until its tool answers or the
                    command is interrupted, even a tool whose promise can never settle.
  --tools MODULE    Also register the tools an ES module exports: every form new ToolRunner takes
                    (defineTool({ name, description, inputSchema, execute }) with a JSON Schema
                    or a zod/valibot/arktype schema, or { name, description, parameters, call }),
                    alone, in an array or in an object, as named or default exports, in
                    export-name order; repeatable. A tool with the name of a built-in (or of a
                    --profile tool) replaces it.
  --allow-address ADDR
                    Let web_fetch reach ADDR, an IP address or an IPv4 range (127.0.0.1, ::1,
                    10.0.0.0/8), which the network policy refuses by default (loopback, private,
                    link-local); repeatable. The model then reads what is served there: give
                    only addresses whose services it may see.
  --profile NAME    Serve a tool profile, a model family's own tool names and shapes, instead of
                    the built-ins (--tools adds to it): anthropic (str_replace_based_edit_tool,
                    bash), openai (apply_patch, shell), gemini (Gemini CLI's read_file,
                    read_many_files, write_file, replace, glob, list_directory, grep_search,
                    run_shell_command, google_web_search, web_fetch, search_file_content) or
                    toolhost (the built-ins and web_fetch).
  --read-only       Only read-only tools may run; others end with the code permission_denied.
  --search-index    Keep a search index of the root (under $XDG_CACHE_HOME/toolhost/search-index,
                    by default ~/.cache/toolhost/search-index): read
                    when saved (searches wait for it), else built in the background and saved on
                    exit; grep_search and search_dir then skip files it rules out, with the same
                    answers. An index that would pass one of its two budgets is not kept (searches
                    scan every file, with the same answers) and a line on stderr says which budget
                    and what to give it.
  --search-index-max-bytes SIZE
                    With --search-index: the largest index kept (default 256M). SIZE is a whole
                    number of bytes, or one with a K, M or G suffix (also KiB, MiB, GiB; powers
                    of 1024), such as 512M or 1G.
  --search-index-max-build-bytes SIZE
                    With --search-index: the most memory (as estimated) its build may take
                    (default 448M; SIZE as above).
  --max-line-bytes N
                    run and mcp on stdio: the longest input line taken, in bytes (default
                    16777216, 16 MiB); a longer line is answered with an error and skipped.
  --http HOST:PORT  mcp: serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (PORT 0
                    picks a free one; the URL is printed on stderr). Browser origins other than
                    localhost are refused. Headers are checked before any body is read; a body
                    may have 4 MiB, all bodies being received at once 64 MiB together (else 413
                    / 503). At most 100 sessions; one idle for 30 minutes is closed, and at the
                    cap the longest-idle one makes room (a client of a closed session gets 404
                    and initializes again). A HOST other than a loopback address (127.0.0.1,
                    ::1, localhost) needs a token, or --allow-unauthenticated.
  --token TOKEN     mcp --http: require Authorization: Bearer TOKEN (the scheme in any case).
                    Other processes can see a command line: prefer --token-file or the
                    environment variable TOOLHOST_MCP_TOKEN, used when neither flag is given.
  --token-file PATH mcp --http: the token is the content of PATH (a trailing newline removed).
  --allow-unauthenticated
                    mcp --http: serve a non-loopback HOST without a token (something in front
                    must authenticate); a warning goes to stderr.
  --conversation ID mcp: the conversation (tool state) of every call; default one per client session.
  --journal         mcp: serve the session's change journal to the client's host (no tool is
                    added for the model): resources toolhost://journal/{conversation} (its turns,
                    files and diffs as JSON) and toolhost://journal/{conversation}/{turn} (that
                    turn's unified diff), and the request toolhost/journal/rewind
                    {"toTurn":N,"dryRun":false,"force":false} that puts the files back as they
                    were after turn N.
  -h, --help        Print this text.
  --version         Print the version.

Exit codes:
  0    success; for run: end of input reached (failed calls and bad lines are reported as
       result lines and do not change the exit code)
  1    call: the tool call failed (the printed object has "error" and "code")
  2    usage error (unknown command or option, missing tool name, arguments that are not a JSON
       object, bad --timeout, --max-line-bytes, --http or SIZE of a search index budget, a budget
       without --search-index, an unknown --profile, --root not an existing directory, a --tools
       module that cannot be loaded or exports no tools, an unreadable or empty --token-file,
       --http on a non-loopback HOST without a token); message on stderr
  130  call or run interrupted (SIGINT/SIGTERM); calls in flight end as cancelled. mcp on
       stdio: a signal stopped it with requests unanswered, whose calls are aborted without an
       answer (a signal that finds every request answered ends it with 0)

Examples:
  toolhost call view_file '{"file_path":"README.md","end_line":20}'
  toolhost call run_command '{"command":"ls -la"}' --root ./project
  printf '%s\\n' '{"id":"1","name":"list_dir","args":{"dir_path":"."}}' | toolhost run
  toolhost mcp --root .
  toolhost mcp --root . --profile anthropic
  toolhost mcp --root . --http 127.0.0.1:8765 --tools ./my-tools.js
`;

class UsageError extends Error {}

interface Parsed {
  command: string | undefined;
  positionals: string[];
  root: string | undefined;
  stateDir: string | undefined;
  state: string | undefined;
  timeoutMs: number | undefined;
  tools: string[];
  /** --profile: the tool profile served instead of the built-ins (undefined: the built-ins). */
  profile: ToolProfileName | undefined;
  /** --allow-address (repeatable): addresses the network policy refuses by default that web_fetch may reach. */
  allowAddresses: string[];
  readOnly: boolean;
  /** --search-index: the platform keeps a search index of the root. */
  searchIndex: boolean;
  /** --search-index-max-bytes / --search-index-max-build-bytes: the index's budgets, in bytes (undefined: the default). */
  searchIndexBudget: { maxIndexBytes?: number; maxBuildBytes?: number };
  http: { host: string; port: number } | undefined;
  token: string | undefined;
  tokenFile: string | undefined;
  allowUnauthenticated: boolean;
  maxLineBytes: number;
  conversation: string | undefined;
  /** mcp --journal: serve the change journal to the client's host. */
  journal: boolean;
  help: boolean;
  version: boolean;
}

function parse(argv: readonly string[]): Parsed {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  let tokens: Array<{ kind: string; name?: string; value?: string | undefined }>;
  try {
    ({ values, positionals, tokens } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        root: { type: 'string' },
        'state-dir': { type: 'string' },
        state: { type: 'string' },
        timeout: { type: 'string' },
        tools: { type: 'string', multiple: true },
        'allow-address': { type: 'string', multiple: true },
        profile: { type: 'string' },
        'read-only': { type: 'boolean' },
        'search-index': { type: 'boolean' },
        'search-index-max-bytes': { type: 'string' },
        'search-index-max-build-bytes': { type: 'string' },
        http: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        'allow-unauthenticated': { type: 'boolean' },
        'max-line-bytes': { type: 'string' },
        conversation: { type: 'string' },
        journal: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // A negative number after a flag that takes a number (`--timeout -5`) is that flag's bad value:
    // parsed as if written `--timeout=-5`, it gets the value's own message, not advice to write that.
    const negative = negativeValue(error as Error, argv);
    if (negative) return parse(negative);
    throw new UsageError(`${parseArgsMessage(error as Error)}; see toolhost --help`);
  }
  // A value given twice (`--root a --root b`) is a mistake too, not the last one silently (--tools adds up).
  const given = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.value === undefined || token.name === 'tools' || token.name === 'allow-address') continue;
    if (given.has(token.name as string)) throw new UsageError(`--${token.name} is given twice; give it once (see toolhost --help)`);
    given.add(token.name as string);
  }
  // An empty value (`--root "$UNSET"`) is a mistake, not the current directory.
  for (const [name, value] of Object.entries(values)) {
    if (value === '' || (Array.isArray(value) && value.includes(''))) throw new UsageError(`--${name} is empty; give it a value (see toolhost --help)`);
  }
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    const text = String(values.timeout);
    timeoutMs = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
      throw new UsageError(`--timeout must be a positive whole number of milliseconds, got "${text}"`);
    }
  }
  let maxLineBytes = DEFAULT_MAX_LINE_BYTES;
  if (values['max-line-bytes'] !== undefined) {
    const text = String(values['max-line-bytes']);
    maxLineBytes = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) {
      throw new UsageError(`--max-line-bytes must be a positive whole number of bytes, e.g. 16777216, got "${text}"`);
    }
  }
  let http: Parsed['http'];
  if (values.http !== undefined) {
    const text = String(values.http);
    const match = /^(.*):(\d{1,5})$/.exec(text);
    const port = match ? Number(match[2]) : NaN;
    if (!match || match[1] === '' || port > 65535) {
      throw new UsageError(`--http takes HOST:PORT, e.g. 127.0.0.1:8765 (port 0 picks a free one), got "${text}"`);
    }
    http = { host: (match[1] as string).replace(/^\[(.*)\]$/, '$1'), port };
  }
  const command = positionals[0];
  const mcpOnly = [
    ['--http', values.http],
    ['--token', values.token],
    ['--token-file', values['token-file']],
    ['--allow-unauthenticated', values['allow-unauthenticated']],
    ['--conversation', values.conversation],
    ['--journal', values.journal],
  ] as const;
  for (const [flag, given] of mcpOnly) {
    if (given !== undefined && command !== 'mcp') throw new UsageError(`${flag} is an option of toolhost mcp only`);
  }
  if (values['max-line-bytes'] !== undefined && command !== 'run' && command !== 'mcp') throw new UsageError('--max-line-bytes is an option of toolhost run and toolhost mcp only');
  if (values['max-line-bytes'] !== undefined && values.http !== undefined) throw new UsageError('--max-line-bytes bounds the lines of toolhost run and of toolhost mcp on stdio; over --http it does nothing: leave it out');
  for (const [flag, given] of mcpOnly.slice(1, 4)) {
    if (given !== undefined && values.http === undefined) throw new UsageError(`${flag} needs --http (stdio has no requests to authorise)`);
  }
  if (values.token !== undefined && values['token-file'] !== undefined) throw new UsageError('give --token or --token-file, not both');
  if (values.state !== undefined && values['state-dir'] !== undefined) throw new UsageError('give --state (Redis) or --state-dir (files), not both');
  if (values.state !== undefined && !/^rediss?:\/\//.test(String(values.state))) {
    throw new UsageError(`--state takes a Redis URL such as redis://127.0.0.1:6379, got "${String(values.state).slice(0, 200)}"`);
  }
  return {
    command,
    positionals: positionals.slice(1),
    profile: profileOf(values.profile as string | undefined),
    allowAddresses: allowedAddressesOf(values['allow-address'] as string[] | undefined),
    root: values.root as string | undefined,
    stateDir: values['state-dir'] as string | undefined,
    state: values.state as string | undefined,
    timeoutMs,
    tools: (values.tools as string[] | undefined) ?? [],
    readOnly: values['read-only'] === true,
    searchIndex: values['search-index'] === true,
    searchIndexBudget: searchIndexBudgetOf(values),
    http,
    token: values.token as string | undefined,
    tokenFile: values['token-file'] as string | undefined,
    allowUnauthenticated: values['allow-unauthenticated'] === true,
    maxLineBytes,
    conversation: values.conversation as string | undefined,
    journal: values.journal === true,
    help: values.help === true,
    version: values.version === true,
  };
}

/**
 * The tool profiles `--profile` takes, as `toolProfiles` names them, in its order (a Record, so a
 * profile the package adds is a compile error here until it is listed).
 */
const PROFILES: Readonly<Record<ToolProfileName, true>> = { anthropic: true, openai: true, gemini: true, toolhost: true };

/** The values of --allow-address, each an IP address or an IPv4 range (usage error otherwise). */
function allowedAddressesOf(values: readonly string[] | undefined): string[] {
  for (const value of values ?? []) {
    if (!isAddressEntry(value)) {
      throw new UsageError(`--allow-address takes an IP address or an IPv4 range, such as 127.0.0.1, ::1 or 10.0.0.0/8, got "${value.slice(0, 200)}"`);
    }
  }
  return [...(values ?? [])];
}

/** The profile `--profile` names (undefined when not given); an unknown name is a usage error listing the known ones. */
function profileOf(name: string | undefined): ToolProfileName | undefined {
  if (name === undefined || Object.hasOwn(PROFILES, name)) return name as ToolProfileName | undefined;
  const known = Object.keys(PROFILES);
  throw new UsageError(
    `unknown --profile ${JSON.stringify(name.slice(0, 200))}; the tool profiles are ${known.slice(0, -1).join(', ')} and ${known.at(-1)} ` +
      '(leave --profile out for the built-ins; see toolhost --help)',
  );
}

/**
 * The tools of the package the command leaves out, by name: each works through a hook of the program
 * that hosts the runner (`startSubagent`, `generateImage`, `onFinish`), and a command line has none to
 * give. Without one, `start_subagent` and `generate_image` answer that nothing ran, and `finish` ends
 * nothing: an MCP client (Claude Code, Codex) or a shell decides by itself when a task is done. Offered
 * anyway, they cost a model calls and context for nothing. A `--tools` module may still add them.
 */
const HOOK_ONLY_TOOLS: ReadonlySet<string> = new Set(['start_subagent', 'generate_image', 'finish']);

/**
 * The tools the command serves before those of `--tools`: the profile's (`--profile`), else the
 * built-ins, less {@link HOOK_ONLY_TOOLS}. The profiles' module is loaded only for `--profile`.
 */
async function baseTools(profile: ToolProfileName | undefined): Promise<AnyTool[]> {
  const tools = profile === undefined ? BuiltinTools.all() : (await import('../src/tools/profiles/index.js')).toolProfiles.byName(profile);
  return tools.filter((tool) => !HOOK_ONLY_TOOLS.has(tool.name));
}

/** The flags of the search index's two budgets, as the budget note names them to the user. */
const BUDGET_FLAGS = { maxIndexBytes: '--search-index-max-bytes', maxBuildBytes: '--search-index-max-build-bytes' } as const;

/** Powers of 1024 a size's suffix stands for. */
const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * A size as `--search-index-max-bytes` takes it: a whole number of bytes, or one with a K, M or G
 * suffix (also KiB, MiB, GiB; any case; powers of 1024). A usage error naming `flag` otherwise.
 */
function parseSize(flag: string, text: string): number {
  const match = /^(\d+)(?:([kmg])(?:ib)?)?$/i.exec(text);
  const bytes = match ? Number(match[1]) * (SIZE_UNITS[(match[2] ?? '').toLowerCase()] as number) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    // Why: too large, zero, or not written as a size at all (1.5M, 5MB, 1T, 0x10).
    const what = match && bytes > 0 ? `a size of at most ${Number.MAX_SAFE_INTEGER} bytes (8 PiB)` : match || /^-\d+$/.test(text) ? 'a size above 0' : 'a size written';
    throw new UsageError(`${flag} takes ${what} as a whole number of bytes, or one with a K, M or G suffix (powers of 1024) such as 512M or 1G, got "${text.slice(0, 200)}"`);
  }
  return bytes;
}

/**
 * The `searchIndex` option of the platform the flags ask for (undefined: none): the budgets given, named
 * as the flags in the note of one passed; `once` (a process that searches once) watches no tree.
 */
function searchIndexOption(parsed: Parsed, once: boolean): NodePlatformOptions['searchIndex'] {
  if (!parsed.searchIndex) return undefined;
  return { ...parsed.searchIndexBudget, budgetNames: BUDGET_FLAGS, ...(once ? { watch: false } : {}) };
}

/** The budgets the search index flags give (each needs --search-index: a budget of no index is a mistake). */
function searchIndexBudgetOf(values: Record<string, string | boolean | string[] | undefined>): Parsed['searchIndexBudget'] {
  const budget: Parsed['searchIndexBudget'] = {};
  for (const [name, flag] of Object.entries(BUDGET_FLAGS) as [keyof typeof BUDGET_FLAGS, string][]) {
    const text = values[flag.slice(2)];
    if (text === undefined) continue;
    if (values['search-index'] !== true) throw new UsageError(`${flag} sets a budget of the search index: give --search-index too`);
    budget[name] = parseSize(flag, String(text));
  }
  return budget;
}

/** The environment variable `mcp --http` takes its token from when no flag gives one. */
const TOKEN_ENV = 'TOOLHOST_MCP_TOKEN';

/**
 * The bearer token of `mcp --http`: `--token`, else the content of `--token-file` (one trailing line
 * break removed), else `TOOLHOST_MCP_TOKEN` when set and not empty, else none. An unreadable or empty
 * file is a usage error.
 */
function resolveToken(parsed: Parsed, env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  if (!parsed.http) return undefined;
  if (parsed.token !== undefined) {
    if (parsed.token === '') throw new UsageError('--token is empty; give the token, or use --token-file PATH');
    return parsed.token;
  }
  if (parsed.tokenFile !== undefined) {
    const path = resolve(cwd, parsed.tokenFile);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`--token-file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a file that holds the token`);
    }
    const token = text.replace(/\r?\n$/, '');
    if (token.trim() === '') throw new UsageError(`--token-file ${path} is empty; write the token into it`);
    return token;
  }
  const fromEnv = env[TOKEN_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
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
        `quote them as one shell word, as in toolhost call view_file '{"file_path":"a.txt"}'${tool === 'view_file' ? '' : ` (toolhost tools lists the arguments of ${tool})`}`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(`the arguments of ${tool} must be a JSON object of its arguments by name (toolhost tools lists them), as '{"file_path":"a.txt"}' is for view_file`);
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
  // A model API's key for the arguments: said, rather than run with none.
  const wire = args === undefined ? ['arguments', 'input'].find((key) => Object.hasOwn(value, key)) : undefined;
  if (wire !== undefined) return fail(`line ${line}: the tool's arguments go in "args" (an object), not "${wire}": {"id":"1","name":${JSON.stringify(name).slice(0, 80)},"args":{...}}`, id);
  const call: ToolCall = { name, args: args ?? {} };
  if (id !== undefined) call.id = String(id);
  return { call, id };
}

/** A call's result as the command's user reads it: the time limit is theirs to raise, with --timeout. */
function inCliWords(result: ToolCallResult): ToolCallResult {
  if (!('code' in result) || result.code !== 'timeout' || typeof result.error !== 'string') return result;
  return { ...result, error: result.error.replace(/; narrow the request or split the work into smaller steps$/, '; narrow the request, split the work into smaller steps, or raise --timeout (milliseconds)') };
}

/** The result with the caller's id as given (a number stays a number), id first. */
function echoId(result: ToolCallResult, id: unknown): Record<string, unknown> {
  const { id: _ignored, ...rest } = result;
  return id === undefined ? rest : { id, ...rest };
}


/** The export shapes `--tools` takes, for the message of a module that exports none of them. */
const TOOL_SHAPES =
  'export (named or default) a tool — defineTool({ name, description, inputSchema, execute }) with a JSON Schema or a ' +
  'Standard Schema (zod 4, valibot, arktype) as inputSchema, or the classic { name, description, parameters, call } — ' +
  'an array of tools, or an object whose values are tools';

/** A value that means to be a tool (a name and something to run), whose rejection is worth reporting. */
function meansTool(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const tool = value as { name?: unknown; execute?: unknown; call?: unknown; callWithContext?: unknown };
  return typeof tool.name === 'string' && [tool.execute, tool.call, tool.callWithContext].some((run) => typeof run === 'function');
}

/**
 * The tools a `--tools` module exports: tools, arrays of tools or objects of them, named or default.
 * What counts as a tool is what `new ToolRunner({ tools })` takes (its own normalisation decides, so
 * the `execute` form with a JSON or Standard Schema and the classic form both load); a value that
 * means to be a tool but is refused is a usage error with the runner's reason.
 */
function toolsOf(module: string, exported: Record<string, unknown>): AnyTool[] {
  const found: AnyTool[] = [];
  const visit = (value: unknown, where: string, depth: number): void => {
    let refusal: Error | undefined;
    try {
      createToolEntry(value as AnyTool);
      found.push(value as AnyTool);
      return;
    } catch (error) {
      refusal = error as Error;
    }
    if (meansTool(value)) throw new UsageError(`--tools ${module}: the export ${where} is not a tool the runner takes: ${refusal.message}`);
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${where}[${index}]`, depth + 1));
    else if (depth === 0 && typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) visit(item, `${where}.${key}`, depth + 1);
    }
  };
  for (const [key, value] of Object.entries(exported)) visit(value, key, 0);
  return [...new Set(found)];
}

/**
 * Imports every `--tools` module (relative to `cwd`); a module that fails or exports no tool, or two
 * different tools of one name (in one module or two), is a usage error; one tool exported twice is one.
 */
async function loadTools(modules: readonly string[], cwd: string): Promise<AnyTool[]> {
  const tools: AnyTool[] = [];
  const from = new Map<AnyTool, string>();
  for (const module of modules) {
    const path = resolve(cwd, module);
    let exported: Record<string, unknown>;
    try {
      exported = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`--tools ${module}: cannot load ${path} (${(error as Error).message}); give an ES module that exports tools (.mjs, or .js in a package whose package.json says "type": "module")`);
    }
    const found = toolsOf(module, exported);
    if (found.length === 0) {
      const names = Object.keys(exported);
      const seen = names.length === 0 ? 'it exports nothing' : `its exports (${names.join(', ')}) hold none`;
      throw new UsageError(`--tools ${module} exports no tool (${seen}): ${TOOL_SHAPES}`);
    }
    for (const tool of found) {
      // The same tool exported twice (by name and in a default list, or by two modules) is one tool;
      // two different tools of one name are refused, as the runner would, with the modules named.
      const held = tools.find((other) => other.name === tool.name);
      if (held === tool) continue;
      if (held) {
        const where = from.get(held) === module ? `${module} exports two different tools` : `${module} and --tools ${from.get(held)} export different tools`;
        throw new UsageError(`--tools ${where} named ${JSON.stringify(tool.name)}; give each tool its own name, or leave one of them out`);
      }
      tools.push(tool);
      from.set(tool, module);
    }
  }
  return tools;
}

/** What a command needs: the runner, the streams and the interrupt signal. */
interface CommandContext {
  parsed: Parsed;
  runner: ToolRunner;
  io: CliIo;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborted on SIGINT/SIGTERM or `io.signal`. */
  interrupt: AbortSignal;
  /** Aborted when stdout is a closed pipe. */
  outputClosed: AbortSignal;
  /** The bearer token of `mcp --http` (see {@link resolveToken}). */
  token: string | undefined;
  /** Opens a runner on another root (`mcp` on stdio without `--root` moves to the client's root); absent when `--root` or `--state` fixes the workspace. */
  openAt?: (root: string) => OpenedRunner;
}

/**
 * `work`, with the process kept alive until it settles. A tool whose promise waits on nothing Node
 * keeps track of (no timer, socket or request: a promise that can never settle) would otherwise end
 * the process at once, its call unanswered and the exit code Node's 13 ("unsettled top-level await");
 * so held, it runs as a slow call does, until its deadline (`--timeout`) or an interrupt ends it.
 */
async function keptAlive<T>(work: Promise<T>): Promise<T> {
  const hold = setInterval(() => undefined, 2 ** 30);
  try {
    return await work;
  } finally {
    clearInterval(hold);
  }
}

/** `call`: one call, printed; exit 1 when it failed. */
async function commandCall(ctx: CommandContext, name: string, args: Record<string, unknown>): Promise<number> {
  const [result] = await keptAlive(ctx.runner.processToolCalls([{ name, args }], { signal: ctx.interrupt }));
  await write(ctx.stdout, `${JSON.stringify(inCliWords(result as ToolCallResult), null, 2)}\n`);
  if (ctx.interrupt.aborted) return CLI_EXIT.interrupted;
  return result && 'code' in result ? CLI_EXIT.callFailed : CLI_EXIT.ok;
}

/** The error line of a `run` input line longer than `--max-line-bytes` (skipped unread). */
function overlongLine(line: number, max: number): Record<string, unknown> {
  return {
    line,
    error: `line ${line} is longer than ${max} bytes (--max-line-bytes); it was skipped unread. Put large content in a file the call names, or raise --max-line-bytes`,
    code: 'too_large',
  };
}

/**
 * `run`: one call at a time, in input order, so result lines match input lines. Input is framed by
 * {@link readLineFrames}: linear, and a line over `--max-line-bytes` is answered and dropped unread.
 */
async function commandRun(ctx: CommandContext): Promise<number> {
  const stop = AbortSignal.any([ctx.interrupt, ctx.outputClosed]);
  for await (const frame of readLineFrames(ctx.io.stdin ?? process.stdin, ctx.parsed.maxLineBytes, stop)) {
    if (frame.kind === 'overlong') {
      await write(ctx.stdout, `${JSON.stringify(overlongLine(frame.line, ctx.parsed.maxLineBytes))}\n`);
      continue;
    }
    if (frame.text.trim() === '') continue;
    const parsedLine = parseLine(frame.text, frame.line);
    if ('error' in parsedLine) {
      await write(ctx.stdout, `${JSON.stringify(parsedLine.error)}\n`);
      continue;
    }
    const [result] = await keptAlive(ctx.runner.processToolCalls([parsedLine.call], { signal: ctx.interrupt }));
    await write(ctx.stdout, `${JSON.stringify(echoId(inCliWords(result as ToolCallResult), parsedLine.id))}\n`);
    if (stop.aborted) break;
  }
  return ctx.interrupt.aborted ? CLI_EXIT.interrupted : CLI_EXIT.ok;
}

/** Resolves when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * What `toolhost mcp` uses of the MCP bridge, loaded only for `mcp` (the server SDK loads with it):
 * the stdio transport's modules, or with `http` the Streamable HTTP server's (a stdio server never
 * loads the HTTP one, nor an HTTP server the stdio one).
 */
async function loadMcpNode(http: boolean) {
  const [server, transports] = await Promise.all([import('../bridges/mcp/server.js'), http ? loadMcpHttp() : loadMcpStdio()]);
  return { createMcpServer: server.createMcpServer, ...transports };
}

/** The stdio transport of `mcp` (see {@link loadMcpNode}); the HTTP members refuse, never called on stdio. */
async function loadMcpStdio() {
  const [stdio, sdk] = await Promise.all([import('../bridges/mcp/node-stdio.js'), import('@modelcontextprotocol/server/stdio')]);
  const notLoaded = (): never => {
    throw new Error('toolhost mcp: the Streamable HTTP server is not loaded on stdio');
  };
  return { LineStdioServerTransport: stdio.LineStdioServerTransport, serveStdio: sdk.serveStdio, serveMcpHttp: notLoaded as typeof import('../bridges/mcp/node-http.js').serveMcpHttp, isLoopbackHost: notLoaded as (host: string) => boolean };
}

/** The Streamable HTTP server of `mcp --http` (see {@link loadMcpNode}); the stdio members refuse, never called with --http. */
async function loadMcpHttp() {
  const http = await import('../bridges/mcp/node-http.js');
  const notLoaded = (): never => {
    throw new Error('toolhost mcp --http: the stdio transport is not loaded');
  };
  return {
    serveMcpHttp: http.serveMcpHttp,
    isLoopbackHost: http.isLoopbackHost,
    LineStdioServerTransport: notLoaded as unknown as typeof import('../bridges/mcp/node-stdio.js').LineStdioServerTransport,
    serveStdio: notLoaded as typeof import('@modelcontextprotocol/server/stdio').serveStdio,
  };
}

type McpNode = Awaited<ReturnType<typeof loadMcpNode>>;

/** `mcp`: serves the runner over stdio until stdin closes, or over Streamable HTTP until interrupted. */
async function commandMcp(ctx: CommandContext): Promise<number> {
  let mcp: McpNode;
  try {
    mcp = await loadMcpNode(ctx.parsed.http !== undefined);
  } catch (error) {
    await write(ctx.stderr, `toolhost: mcp could not load the MCP server SDK (@modelcontextprotocol/server), a dependency of toolhost: reinstall toolhost (${(error as Error).message})\n`);
    return CLI_EXIT.usage;
  }
  const { parsed, runner } = ctx;
  const serverOptions = {
    name: 'toolhost',
    version: version(),
    ...(parsed.conversation === undefined ? {} : { conversation: parsed.conversation }),
    ...(parsed.journal ? { journal: true } : {}),
  };
  if (parsed.http) return commandMcpHttp(ctx, mcp, serverOptions, parsed.http);
  const input = ctx.io.stdin ?? process.stdin;
  const output = ctx.stdout;
  if (!(input instanceof Readable) || !(output instanceof Writable)) {
    await write(ctx.stderr, 'toolhost: mcp on stdio needs Node stream objects for stdin and stdout\n');
    return CLI_EXIT.usage;
  }
  // The SDK's stdio entry takes the protocol era from the client's first message (a 2025-11-25
  // `initialize` or a 2026-07-28 `server/discover`) and pins one server for the connection. The
  // transport is toolhost's: linear framing, and an over-long line is answered, not fatal.
  const transport = new mcp.LineStdioServerTransport(input, output, { maxLineBytes: parsed.maxLineBytes });
  // Without --root the workspace is the client's root when it offers one (the current directory else).
  // With --search-index, the current directory's runner (which lists the tools) keeps no index: the
  // workspace chosen, wherever it is, is opened with one.
  const here = { dir: resolve(ctx.io.cwd ?? process.cwd()), open: parsed.searchIndex };
  const rooted = ctx.openAt ? new ClientRootsHost(runner, ctx.openAt, (line) => void write(ctx.stderr, `toolhost: ${line}\n`), here) : undefined;
  const handle = mcp.serveStdio(async () => (rooted ? rooted.attach(await mcp.createMcpServer(rooted, serverOptions)) : mcp.createMcpServer(runner, serverOptions)), { transport });
  let cutShort = 0;
  try {
    // The transport closes once stdin has ended and the requests received by then are answered.
    await keptAlive(Promise.race([transport.closed, aborted(ctx.interrupt), aborted(ctx.outputClosed)]));
    // A signal that stops the server while requests are unanswered (stdin still open, or closed and
    // the server draining) cuts them short: closing aborts their calls, and they get no answer.
    if (ctx.interrupt.aborted) cutShort = transport.unanswered;
    // Closing drops the answers not yet begun (their calls are cut short); the line being written is
    // finished if the client reads it within INTERRUPTED_FLUSH_MS: no line is cut by the exit then.
    await handle.close();
    if (ctx.interrupt.aborted) await flushed(output, INTERRUPTED_FLUSH_MS);
  } finally {
    await settledOrInterrupted(rooted?.dispose(), ctx.interrupt);
  }
  return cutShort > 0 ? CLI_EXIT.interrupted : CLI_EXIT.ok;
}

/**
 * How long `mcp` stopped by a signal waits for stdout to take the line it is writing (ms): the
 * transport writes one batch of lines at a time and drops the rest on close, so what is left is at
 * most one answer (and the short lines before it). A client that reads on gets it whole; one that has
 * not read it all within this time may find the last line cut when the process exits.
 */
const INTERRUPTED_FLUSH_MS = 5000;

/** Resolves once `stream` holds nothing it has not handed to the system, or after `ms`, or when it fails. */
async function flushed(stream: Writable, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (stream.writableLength > 0 && !stream.destroyed && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** How long an interrupted command still waits for its platform's `dispose()` (ms). */
const INTERRUPTED_DISPOSE_MS = 300;

/**
 * Waits for `disposing`; after a SIGINT or SIGTERM (`interrupt` aborted) at most
 * {@link INTERRUPTED_DISPOSE_MS}. The command's calls have stopped by then (their signal is the same);
 * what `dispose()` may still wait for is a search index build, which is left for the next process
 * rather than delaying the exit by its seconds (the launcher exits a second after the command at most).
 * Exported for its test; not part of the package's entries.
 */
export async function settledOrInterrupted(disposing: Promise<void> | undefined, interrupt: AbortSignal): Promise<void> {
  if (disposing === undefined) return;
  if (!interrupt.aborted) return disposing;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, INTERRUPTED_DISPOSE_MS);
    timer.unref?.();
  });
  try {
    await Promise.race([disposing.catch(() => undefined), grace]);
  } finally {
    clearTimeout(timer);
  }
}

/** `mcp --http`: serves Streamable HTTP until interrupted; a non-loopback address needs a token or the explicit flag. */
async function commandMcpHttp(
  ctx: CommandContext,
  mcp: McpNode,
  serverOptions: { name: string; version: string; conversation?: string; journal?: boolean },
  address: { host: string; port: number },
): Promise<number> {
  const { parsed, runner, token } = ctx;
  const open = !mcp.isLoopbackHost(address.host) && token === undefined;
  if (open && !parsed.allowUnauthenticated) {
    await write(
      ctx.stderr,
      `toolhost: --http ${address.host} is reachable from other machines and no token is set, so anyone there could run the tools; ` +
        `give --token-file PATH (or ${TOKEN_ENV} in the environment, or --token), bind 127.0.0.1, or pass --allow-unauthenticated when something in front authenticates\n`,
    );
    return CLI_EXIT.usage;
  }
  if (open) {
    await write(ctx.stderr, `toolhost: warning: serving MCP on ${address.host} without a token (--allow-unauthenticated); every client that can reach it can run the tools\n`);
  }
  // With state in Redis the server keeps nothing between requests (no sessions), so any of several
  // processes can answer any request; the request names its conversation.
  const stateless = parsed.state !== undefined;
  const endpoint = await mcp.serveMcpHttp(
    (request) =>
      mcp.createMcpServer(
        runner,
        stateless && parsed.conversation === undefined
          ? { ...serverOptions, conversation: request.headers.get('toolhost-conversation') ?? 'default' }
          : serverOptions,
      ),
    {
      host: address.host,
      port: address.port,
      ...(token === undefined ? {} : { bearerToken: token }),
      ...(open ? { allowUnauthenticated: true } : {}),
      ...(stateless ? { sessions: false } : {}),
    },
  );
  await write(ctx.stderr, `toolhost: MCP (Streamable HTTP) at ${endpoint.url.href}\n`);
  await aborted(ctx.interrupt);
  await endpoint.close();
  return CLI_EXIT.ok;
}

/**
 * One line for an error of node:util's parseArgs: its message, but for an option given a value that
 * starts with a dash (`--root -x`), whose message spans three lines, what to write instead.
 */
function parseArgsMessage(error: Error): string {
  const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(error.message);
  if (ambiguous) return `${ambiguous[1]} needs a value; one that starts with a dash is written ${ambiguous[1]}=-VALUE`;
  const missing = /^Option '(--[^' ]+) <value>' argument missing/.exec(error.message);
  if (missing) return `${missing[1]} needs a value, and it was the last word`;
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (unknown) return `unknown option ${unknown[1]}`;
  return error.message.replace(/\s*\n\s*/g, ' ');
}

/** The options whose value is a number (none of them takes a negative one). */
const NUMBER_OPTIONS: ReadonlySet<string> = new Set(['--timeout', '--search-index-max-bytes', '--search-index-max-build-bytes', '--max-line-bytes']);

/**
 * For parseArgs' "argument is ambiguous" error of a number option followed by a negative number
 * (`--timeout -5`): `argv` with the two joined (`--timeout=-5`), else undefined.
 */
function negativeValue(error: Error, argv: readonly string[]): string[] | undefined {
  const flag = /^Option '(--[^']+)' argument is ambiguous/.exec(error.message)?.[1];
  if (flag === undefined || !NUMBER_OPTIONS.has(flag)) return undefined;
  const at = argv.indexOf(flag);
  const value = argv[at + 1];
  if (at === -1 || value === undefined || !/^-[\d.]/.test(value)) return undefined;
  return [...argv.slice(0, at), `${flag}=${value}`, ...argv.slice(at + 2)];
}

/** Checks the command and its positionals; returns the usage message for a bad one. */
function checkCommand(command: string, positionals: readonly string[]): string | undefined {
  if (command !== 'call' && command !== 'run' && command !== 'tools' && command !== 'mcp') {
    return `unknown command "${command}"; use call, run, tools or mcp (toolhost --help)`;
  }
  if (command === 'call' && positionals.length === 0) {
    return `call needs a tool name, e.g. toolhost call view_file '{"file_path":"a.txt"}'; toolhost tools lists them`;
  }
  const maxPositionals = command === 'call' ? 2 : 0;
  if (positionals.length > maxPositionals) {
    const extra = positionals.slice(maxPositionals).join(' ');
    return command === 'call'
      ? `unexpected "${extra}": quote the JSON arguments as one shell word, e.g. '{"file_path":"a b.txt"}'`
      : `${command} takes no arguments, got "${extra}" (toolhost --help)`;
  }
  return undefined;
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
  const usage = async (message: string): Promise<number> => {
    await write(stderr, `toolhost: ${message}\n`);
    return CLI_EXIT.usage;
  };

  let parsed: Parsed;
  try {
    parsed = parse(argv);
  } catch (error) {
    return usage((error as Error).message);
  }
  if (parsed.help || parsed.command === 'help') {
    await write(stdout, USAGE);
    return CLI_EXIT.ok;
  }
  if (parsed.version) {
    await write(stdout, `${version()}\n`);
    return CLI_EXIT.ok;
  }
  const { command, positionals } = parsed;
  if (command === undefined) {
    await write(stderr, USAGE);
    return CLI_EXIT.usage;
  }
  const bad = checkCommand(command, positionals);
  if (bad !== undefined) return usage(bad);

  let callArgs: Record<string, unknown> = {};
  let extraTools: AnyTool[];
  let served: AnyTool[];
  let token: string | undefined;
  try {
    if (command === 'call') callArgs = parseCallArgs(positionals[0] as string, positionals[1]);
    token = resolveToken(parsed, io.env ?? process.env, cwd);
    extraTools = await loadTools(parsed.tools, cwd);
    served = await baseTools(parsed.profile);
  } catch (error) {
    return usage((error as Error).message);
  }

  const notes: Promise<void>[] = [];
  let platform: Platform;
  let shared: RedisStateStore | undefined;
  /** A platform on `at`, keeping the search index `index` where given: the note of it turning off (a budget passed) goes to stderr as it happens. */
  const platformAt = (at: string, index: NodePlatformOptions['searchIndex']): Platform => {
    const opened = createNodePlatform({
      root: at,
      ...(parsed.stateDir === undefined ? {} : { stateDir: resolve(cwd, parsed.stateDir) }),
      ...(shared === undefined ? {} : { state: shared }),
      ...(index === undefined ? {} : { searchIndex: index }),
      ...(parsed.allowAddresses.length === 0 ? {} : { network: { allowAddresses: parsed.allowAddresses } }),
    });
    if (index !== undefined) whenSearchIndexOff(opened, (note) => notes.push(write(stderr, `toolhost: ${note}\n`)));
    return opened;
  };
  // Without --root (and without Redis, whose keys name the workspace), `mcp` on stdio may move to the client's root.
  const mayMove = parsed.root === undefined && parsed.state === undefined;
  const root = resolve(cwd, parsed.root ?? '.');
  try {
    // The workspace names the Redis keys: processes serving the same directory share its conversations.
    // Loaded only for --state (its module hashes its scripts when it loads, which loads node:crypto).
    if (parsed.state !== undefined) shared = (await import('./redis-state-store.js')).createRedisStateStore({ url: parsed.state, workspace: realRoot(root) });
    // No index where no search can run here: `tools` runs no tool, and `mcp` on stdio without --root
    // (or --state) serves the workspace it chooses at the client's roots, opened with its own index.
    const indexHere = parsed.searchIndex && command !== 'tools' && !(command === 'mcp' && parsed.http === undefined && mayMove);
    // `call` searches once: watching the tree for the next search would only cost.
    const open = (): Platform => platformAt(root, indexHere ? searchIndexOption(parsed, command === 'call') : undefined);
    // `call` runs one call and exits: its search keeps no file contents and starts no helper thread,
    // and keeps no directory listings unless a search index is to be built from them.
    platform = command === 'call' ? withSearchSourceDefaults({ cacheBytes: 0, helper: false, ...(indexHere ? {} : { keepListings: false }) }, open) : open();
  } catch (error) {
    await shared?.close();
    // The platform's advice names its options (inMemory, stateDir): said here in the command line's terms.
    const message = (error as Error).message;
    if (message.startsWith('the state directory ')) return usage(`--state-dir: ${message.replace(/; give createNodePlatform a stateDir that is /, '; give --state-dir ')}`);
    // Node.js decodes the command line and the current directory as UTF-8: a name with other bytes
    // arrives with U+FFFD in their place, naming no folder.
    if (root.includes('\uFFFD') && /does not exist/.test(message)) {
      const what = parsed.root === undefined ? 'the current directory' : '--root: the workspace root';
      return usage(`${what} ${JSON.stringify(root)} does not exist; if the folder's name has bytes that are not UTF-8 (shown as \uFFFD), Node.js cannot pass them on as they are: rename it (or the folders above it) to UTF-8 names`);
    }
    return usage(`--root: ${message.replace(/; create it first, or give inMemory: true for a workspace in memory$/, '; create it first, or give an existing folder')}`);
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
    // A --tools tool replaces the built-in (or profile tool) of its name.
    const base = served.filter((tool) => !extraTools.some((extra) => extra.name === tool.name));
    const runnerOn = (on: Platform): ToolRunner =>
      new ToolRunner({
        platform: on,
        tools: [...base, ...extraTools],
        ...(parsed.readOnly ? { planMode: true } : {}),
        ...(parsed.timeoutMs === undefined ? {} : { defaultTimeoutMs: parsed.timeoutMs }),
      });
    const runner = runnerOn(platform);
    const openAt = mayMove
      ? (at: string): OpenedRunner => {
          const opened = platformAt(at, searchIndexOption(parsed, false));
          return { host: runnerOn(opened), dispose: () => opened.dispose() };
        }
      : undefined;
    const ctx: CommandContext = { parsed, runner, io, stdout, stderr, interrupt: interrupt.signal, outputClosed: outputClosed.signal, token, ...(openAt ? { openAt } : {}) };
    if (command === 'tools') {
      await write(stdout, `${JSON.stringify(runner.declarations(), null, 2)}\n`);
      return CLI_EXIT.ok;
    }
    if (command === 'call') return await commandCall(ctx, positionals[0] as string, callArgs);
    if (command === 'mcp') return await commandMcp(ctx);
    return await commandRun(ctx);
  } finally {
    if (handleSignals) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    io.signal?.removeEventListener('abort', onOuterAbort);
    stdout.off('error', onStdoutError);
    await settledOrInterrupted(platform.dispose(), interrupt.signal);
    await shared?.close();
    await Promise.all(notes);
  }
}

/** The realpath of `root`, or `root` itself when it cannot be resolved (the platform then reports why). */
function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}
