/**
 * The `toolhost` command: the built-in tools on a real directory, from
 * a shell or another process. The package `bin` (`bin/toolhost.mjs`) calls {@link main} with
 * `process.argv.slice(2)` and exits with the code it returns.
 *
 * ```sh
 * toolhost call <tool> '<json args>' [--root DIR] [--state-dir DIR] [--timeout MS]
 * toolhost run [--root DIR] [--state-dir DIR] [--timeout MS] < calls.jsonl
 * toolhost tools [--tools ./my-tools.js]
 * toolhost mcp --root DIR [--http HOST:PORT] [--tools ./my-tools.js] [--read-only] [--state-dir DIR | --state redis://…]
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
 * Built with `createNodePlatform({ root, stateDir })`, `BuiltinTools.all()` and the tools of `--tools`
 * modules; `web_search` / `google_search` reach the runner's search fallback. `mcp` loads the MCP SDK
 * (`@modelcontextprotocol/server`, an optional peer dependency) only when it runs. Nothing runs at import time.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ToolRunner } from '../src/core/runner.js';
import { createToolEntry } from '../src/core/entry.js';
import { BuiltinTools } from '../src/tools/index.js';
import { createNodePlatform } from './platform.js';
import { createRedisStateStore } from './redis-state-store.js';
/** Exit codes of {@link main}, as documented in the usage text. */
export const CLI_EXIT = { ok: 0, callFailed: 1, usage: 2, interrupted: 130 };
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
  mcp                          Serve the tools as an MCP server: on stdin/stdout (the default, for
                               MCP clients that start the command), or with --http on Streamable
                               HTTP. Ends when stdin closes or on SIGINT/SIGTERM. Needs the package
                               @modelcontextprotocol/server installed beside toolhost.
  help                         Print this text.

Options:
  --root DIR        Workspace directory (default: the current directory). Tools cannot read or
                    write outside it: such a path gives the code outside_workspace.
  --state-dir DIR   Keep tool state as files in DIR across runs (default: in memory, this run only).
  --state URL       Keep tool state in Redis at URL (redis://host:port[/db]), shared by every
                    toolhost process given the same URL and --root; needs the ioredis package.
                    With mcp --http the server is stateless, so N processes behind a load
                    balancer can each take any request: a request names its conversation with
                    the Toolhost-Conversation header (else --conversation, else "default").
  --timeout MS      Deadline of each call in milliseconds (default: none); a late call ends with
                    the code timeout.
  --tools MODULE    Also register the tools an ES module exports: every form new ToolRunner takes
                    (defineTool({ name, description, inputSchema, execute }) with a JSON Schema
                    or a zod/valibot/arktype schema, or { name, description, parameters, call }),
                    alone, in an array or in an object, as named or default exports, in
                    export-name order; repeatable. A tool with a built-in's name replaces it.
  --read-only       Only read-only tools may run; others end with the code permission_denied.
  --http HOST:PORT  mcp: serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (PORT 0
                    picks a free one; the URL is printed on stderr). Browser origins other than
                    localhost are refused.
  --token TOKEN     mcp --http: require Authorization: Bearer TOKEN.
  --conversation ID mcp: the conversation (tool state) of every call; default one per client session.
  -h, --help        Print this text.
  --version         Print the version.

Exit codes:
  0    success; for run: end of input reached (failed calls and bad lines are reported as
       result lines and do not change the exit code)
  1    call: the tool call failed (the printed object has "error" and "code")
  2    usage error (unknown command or option, missing tool name, arguments that are not a JSON
       object, bad --timeout or --http, --root not an existing directory, a --tools module that
       cannot be loaded or exports no tools); message on stderr
  130  interrupted (SIGINT/SIGTERM); calls in flight end as cancelled

Examples:
  toolhost call view_file '{"file_path":"README.md","end_line":20}'
  toolhost call run_command '{"command":"ls -la"}' --root ./project
  printf '%s\\n' '{"id":"1","name":"list_dir","args":{"dir_path":"."}}' | toolhost run
  toolhost mcp --root .
  toolhost mcp --root . --http 127.0.0.1:8765 --tools ./my-tools.js
`;
class UsageError extends Error {
}
function parse(argv) {
    let values;
    let positionals;
    try {
        ({ values, positionals } = parseArgs({
            args: [...argv],
            allowPositionals: true,
            strict: true,
            options: {
                root: { type: 'string' },
                'state-dir': { type: 'string' },
                state: { type: 'string' },
                timeout: { type: 'string' },
                tools: { type: 'string', multiple: true },
                'read-only': { type: 'boolean' },
                http: { type: 'string' },
                token: { type: 'string' },
                conversation: { type: 'string' },
                help: { type: 'boolean', short: 'h' },
                version: { type: 'boolean' },
            },
        }));
    }
    catch (error) {
        throw new UsageError(`${error.message}; see toolhost --help`);
    }
    let timeoutMs;
    if (values.timeout !== undefined) {
        const text = String(values.timeout);
        timeoutMs = /^\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
            throw new UsageError(`--timeout must be a positive whole number of milliseconds, got "${text}"`);
        }
    }
    let http;
    if (values.http !== undefined) {
        const text = String(values.http);
        const match = /^(.*):(\d{1,5})$/.exec(text);
        const port = match ? Number(match[2]) : NaN;
        if (!match || match[1] === '' || port > 65535) {
            throw new UsageError(`--http takes HOST:PORT, e.g. 127.0.0.1:8765 (port 0 picks a free one), got "${text}"`);
        }
        http = { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
    }
    const command = positionals[0];
    for (const [flag, given] of [['--http', values.http], ['--token', values.token], ['--conversation', values.conversation]]) {
        if (given !== undefined && command !== 'mcp')
            throw new UsageError(`${flag} is an option of toolhost mcp only`);
    }
    if (values.token !== undefined && values.http === undefined)
        throw new UsageError('--token needs --http (stdio has no requests to authorise)');
    if (values.state !== undefined && values['state-dir'] !== undefined)
        throw new UsageError('give --state (Redis) or --state-dir (files), not both');
    if (values.state !== undefined && !/^rediss?:\/\//.test(String(values.state))) {
        throw new UsageError(`--state takes a Redis URL such as redis://127.0.0.1:6379, got "${String(values.state).slice(0, 200)}"`);
    }
    return {
        command,
        positionals: positionals.slice(1),
        root: values.root,
        stateDir: values['state-dir'],
        state: values.state,
        timeoutMs,
        tools: values.tools ?? [],
        readOnly: values['read-only'] === true,
        http,
        token: values.token,
        conversation: values.conversation,
        help: values.help === true,
        version: values.version === true,
    };
}
/** The package version, from the nearest package.json named toolhost above this module (src or dist). */
function version() {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (let i = 0; i < 4; i += 1) {
        try {
            const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
            if (pkg.name === 'toolhost' && typeof pkg.version === 'string')
                return pkg.version;
        }
        catch {
            // not here: look one level up
        }
        dir = dirname(dir);
    }
    return 'unknown';
}
/** Writes and waits until the stream accepted the chunk, so a slow reader applies back-pressure. */
function write(stream, text) {
    return new Promise((done) => {
        stream.write(text, () => done());
    });
}
/** Parses `call`'s JSON arguments; anything but an object is a usage error. */
function parseCallArgs(tool, text) {
    if (text === undefined)
        return {};
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        throw new UsageError(`the arguments of ${tool} are not valid JSON (${error.message}); ` +
            `quote them as one shell word, e.g. toolhost call ${tool} '{"file_path":"a.txt"}'`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw new UsageError(`the arguments of ${tool} must be a JSON object, e.g. '{"file_path":"a.txt"}'; see toolhost tools`);
    }
    return value;
}
/** One `run` input line → a call, or the error line to print for it. */
function parseLine(text, line) {
    const fail = (message, id) => ({
        error: { line, ...(id === undefined ? {} : { id }), error: message, code: 'invalid_arguments' },
    });
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        return fail(`line ${line} is not valid JSON (${error.message}); send one object per line: {"id":"1","name":"view_file","args":{...}}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return fail(`line ${line} must be a JSON object {"id":"1","name":"view_file","args":{...}}`);
    }
    const { id, name, args } = value;
    const idOk = id === undefined || typeof id === 'string' || typeof id === 'number';
    if (!idOk)
        return fail(`line ${line}: "id" must be a string or a number`);
    if (typeof name !== 'string' || name === '')
        return fail(`line ${line} has no tool "name"; see toolhost tools`, id);
    const call = { name, args: args ?? {} };
    if (id !== undefined)
        call.id = String(id);
    return { call, id };
}
/** The result with the caller's id as given (a number stays a number), id first. */
function echoId(result, id) {
    const { id: _ignored, ...rest } = result;
    return id === undefined ? rest : { id, ...rest };
}
/** The export shapes `--tools` takes, for the message of a module that exports none of them. */
const TOOL_SHAPES = 'export (named or default) a tool — defineTool({ name, description, inputSchema, execute }) with a JSON Schema or a ' +
    'Standard Schema (zod 4, valibot, arktype) as inputSchema, or the classic { name, description, parameters, call } — ' +
    'an array of tools, or an object whose values are tools';
/** A value that means to be a tool (a name and something to run), whose rejection is worth reporting. */
function meansTool(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const tool = value;
    return typeof tool.name === 'string' && [tool.execute, tool.call, tool.callWithContext].some((run) => typeof run === 'function');
}
/**
 * The tools a `--tools` module exports: tools, arrays of tools or objects of them, named or default.
 * What counts as a tool is what `new ToolRunner({ tools })` takes (its own normalisation decides, so
 * the `execute` form with a JSON or Standard Schema and the classic form both load); a value that
 * means to be a tool but is refused is a usage error with the runner's reason.
 */
function toolsOf(module, exported) {
    const found = [];
    const visit = (value, where, depth) => {
        let refusal;
        try {
            createToolEntry(value);
            found.push(value);
            return;
        }
        catch (error) {
            refusal = error;
        }
        if (meansTool(value))
            throw new UsageError(`--tools ${module}: the export ${where} is not a tool the runner takes: ${refusal.message}`);
        if (Array.isArray(value))
            value.forEach((item, index) => visit(item, `${where}[${index}]`, depth + 1));
        else if (depth === 0 && typeof value === 'object' && value !== null) {
            for (const [key, item] of Object.entries(value))
                visit(item, `${where}.${key}`, depth + 1);
        }
    };
    for (const [key, value] of Object.entries(exported))
        visit(value, key, 0);
    return [...new Map(found.map((tool) => [tool.name, tool])).values()];
}
/** Imports every `--tools` module (relative to `cwd`); a module that fails or exports no tool is a usage error. */
async function loadTools(modules, cwd) {
    const tools = [];
    for (const module of modules) {
        const path = resolve(cwd, module);
        let exported;
        try {
            exported = (await import(pathToFileURL(path).href));
        }
        catch (error) {
            throw new UsageError(`--tools ${module}: cannot load ${path} (${error.message}); give an ES module (.js/.mjs) that exports tools`);
        }
        const found = toolsOf(module, exported);
        if (found.length === 0) {
            const names = Object.keys(exported);
            const seen = names.length === 0 ? 'it exports nothing' : `its exports (${names.join(', ')}) hold none`;
            throw new UsageError(`--tools ${module} exports no tool (${seen}): ${TOOL_SHAPES}`);
        }
        tools.push(...found);
    }
    return tools;
}
/** `call`: one call, printed; exit 1 when it failed. */
async function commandCall(ctx, name, args) {
    const [result] = await ctx.runner.processToolCalls([{ name, args }], { signal: ctx.interrupt });
    await write(ctx.stdout, `${JSON.stringify(result, null, 2)}\n`);
    if (ctx.interrupt.aborted)
        return CLI_EXIT.interrupted;
    return result && 'code' in result ? CLI_EXIT.callFailed : CLI_EXIT.ok;
}
/** `run`: one call at a time, in input order, so result lines match input lines. */
async function commandRun(ctx) {
    const lines = createInterface({ input: ctx.io.stdin ?? process.stdin, crlfDelay: Infinity, terminal: false });
    const stop = () => lines.close();
    ctx.interrupt.addEventListener('abort', stop, { once: true });
    ctx.outputClosed.addEventListener('abort', stop, { once: true });
    let lineNumber = 0;
    try {
        for await (const text of lines) {
            lineNumber += 1;
            if (text.trim() === '')
                continue;
            const parsedLine = parseLine(text, lineNumber);
            if ('error' in parsedLine) {
                await write(ctx.stdout, `${JSON.stringify(parsedLine.error)}\n`);
                continue;
            }
            const [result] = await ctx.runner.processToolCalls([parsedLine.call], { signal: ctx.interrupt });
            await write(ctx.stdout, `${JSON.stringify(echoId(result, parsedLine.id))}\n`);
            if (ctx.interrupt.aborted || ctx.outputClosed.aborted)
                break;
        }
    }
    finally {
        ctx.interrupt.removeEventListener('abort', stop);
        ctx.outputClosed.removeEventListener('abort', stop);
        lines.close();
    }
    return ctx.interrupt.aborted ? CLI_EXIT.interrupted : CLI_EXIT.ok;
}
/** Resolves when `signal` aborts. */
function aborted(signal) {
    return new Promise((resolve) => {
        if (signal.aborted)
            resolve();
        else
            signal.addEventListener('abort', () => resolve(), { once: true });
    });
}
/** `mcp`: serves the runner over stdio until stdin closes, or over Streamable HTTP until interrupted. */
async function commandMcp(ctx) {
    let mcp;
    try {
        mcp = await import('../bridges/mcp/node.js');
    }
    catch (error) {
        await write(ctx.stderr, `toolhost: mcp needs the MCP SDK: npm install @modelcontextprotocol/server (${error.message})\n`);
        return CLI_EXIT.usage;
    }
    const { parsed, runner } = ctx;
    const serverOptions = { name: 'toolhost', version: version(), ...(parsed.conversation === undefined ? {} : { conversation: parsed.conversation }) };
    if (parsed.http) {
        // With state in Redis the server keeps nothing between requests (no sessions), so any of several
        // processes can answer any request; the request names its conversation.
        const stateless = parsed.state !== undefined;
        const endpoint = await mcp.serveMcpHttp((request) => mcp.createMcpServer(runner, stateless && parsed.conversation === undefined
            ? { ...serverOptions, conversation: request.headers.get('toolhost-conversation') ?? 'default' }
            : serverOptions), {
            host: parsed.http.host,
            port: parsed.http.port,
            ...(parsed.token === undefined ? {} : { bearerToken: parsed.token }),
            ...(stateless ? { sessions: false } : {}),
        });
        await write(ctx.stderr, `toolhost: MCP (Streamable HTTP) at ${endpoint.url.href}\n`);
        await aborted(ctx.interrupt);
        await endpoint.close();
        return CLI_EXIT.ok;
    }
    const input = ctx.io.stdin ?? process.stdin;
    const output = ctx.stdout;
    if (!(input instanceof Readable) || !(output instanceof Writable)) {
        await write(ctx.stderr, 'toolhost: mcp on stdio needs Node stream objects for stdin and stdout\n');
        return CLI_EXIT.usage;
    }
    const closed = new Promise((resolve) => {
        input.once('end', resolve);
        input.once('close', resolve);
    });
    // The SDK's stdio entry takes the protocol era from the client's first message (a 2025-11-25
    // `initialize` or a 2026-07-28 `server/discover`) and pins one server for the connection.
    const handle = mcp.serveStdio(() => mcp.createMcpServer(runner, serverOptions), { transport: new mcp.StdioServerTransport(input, output) });
    await Promise.race([closed, aborted(ctx.interrupt), aborted(ctx.outputClosed)]);
    await handle.close();
    return CLI_EXIT.ok;
}
/** Checks the command and its positionals; returns the usage message for a bad one. */
function checkCommand(command, positionals) {
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
export async function main(argv, io = {}) {
    const stdout = io.stdout ?? process.stdout;
    const stderr = io.stderr ?? process.stderr;
    const cwd = io.cwd ?? process.cwd();
    const usage = async (message) => {
        await write(stderr, `toolhost: ${message}\n`);
        return CLI_EXIT.usage;
    };
    let parsed;
    try {
        parsed = parse(argv);
    }
    catch (error) {
        return usage(error.message);
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
    if (bad !== undefined)
        return usage(bad);
    let callArgs = {};
    let extraTools;
    try {
        if (command === 'call')
            callArgs = parseCallArgs(positionals[0], positionals[1]);
        extraTools = await loadTools(parsed.tools, cwd);
    }
    catch (error) {
        return usage(error.message);
    }
    let platform;
    let shared;
    try {
        const root = resolve(cwd, parsed.root ?? '.');
        // The workspace names the Redis keys: processes serving the same directory share its conversations.
        if (parsed.state !== undefined)
            shared = createRedisStateStore({ url: parsed.state, workspace: realRoot(root) });
        platform = createNodePlatform({
            root,
            ...(parsed.stateDir === undefined ? {} : { stateDir: resolve(cwd, parsed.stateDir) }),
            ...(shared === undefined ? {} : { state: shared }),
        });
    }
    catch (error) {
        await shared?.close();
        return usage(`--root: ${error.message}`);
    }
    const interrupt = new AbortController();
    const onSignal = () => interrupt.abort(new Error('interrupted'));
    const onOuterAbort = () => interrupt.abort(io.signal?.reason);
    if (io.signal?.aborted)
        onOuterAbort();
    io.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const handleSignals = io.handleSignals ?? true;
    if (handleSignals) {
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
    }
    // A closed pipe (`toolhost run | head -1`) is not a crash: reading stops, the exit code is kept.
    const outputClosed = new AbortController();
    const onStdoutError = (error) => {
        if (error.code !== 'EPIPE')
            throw error;
        outputClosed.abort();
    };
    stdout.on('error', onStdoutError);
    try {
        const builtins = BuiltinTools.all().filter((tool) => !extraTools.some((extra) => extra.name === tool.name));
        const runner = new ToolRunner({
            platform,
            tools: [...builtins, ...extraTools],
            ...(parsed.readOnly ? { permissions: 'read_only' } : {}),
            ...(parsed.timeoutMs === undefined ? {} : { defaultTimeoutMs: parsed.timeoutMs }),
        });
        const ctx = { parsed, runner, io, stdout, stderr, interrupt: interrupt.signal, outputClosed: outputClosed.signal };
        if (command === 'tools') {
            await write(stdout, `${JSON.stringify(runner.declarations(), null, 2)}\n`);
            return CLI_EXIT.ok;
        }
        if (command === 'call')
            return await commandCall(ctx, positionals[0], callArgs);
        if (command === 'mcp')
            return await commandMcp(ctx);
        return await commandRun(ctx);
    }
    finally {
        if (handleSignals) {
            process.off('SIGINT', onSignal);
            process.off('SIGTERM', onSignal);
        }
        io.signal?.removeEventListener('abort', onOuterAbort);
        stdout.off('error', onStdoutError);
        await platform.dispose();
        await shared?.close();
    }
}
/** The realpath of `root`, or `root` itself when it cannot be resolved (the platform then reports why). */
function realRoot(root) {
    try {
        return realpathSync(root);
    }
    catch {
        return root;
    }
}
//# sourceMappingURL=cli.js.map