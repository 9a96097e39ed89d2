/** Exit codes of {@link main}, as documented in the usage text. */
export declare const CLI_EXIT: {
    readonly ok: 0;
    readonly callFailed: 1;
    readonly usage: 2;
    readonly interrupted: 130;
};
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
export declare const USAGE = "Usage: toolhost <command> [options]\n\nRun toolhost's built-in tools (view_file, create_file, edit_file, run_command, ...) on a directory.\n\nCommands:\n  call <tool> ['<json args>']  Run one tool call and print { \"name\", \"result\" } or\n                               { \"name\", \"error\", \"code\" } as JSON. Args default to {}.\n  run                          Read tool calls from stdin, one JSON object per line:\n                                 {\"id\":\"1\",\"name\":\"view_file\",\"args\":{\"file_path\":\"a.txt\"}}\n                               Write one JSON result line per call, in input order, one call at a\n                               time, ids echoed. A line that is not a valid call gives\n                                 {\"line\":N,\"error\":\"...\",\"code\":\"invalid_arguments\"}\n                               and the rest go on. Blank lines are ignored.\n  tools                        Print the tool declarations (name, description, parameters) as JSON.\n  mcp                          Serve the tools as an MCP server: on stdin/stdout (the default, for\n                               MCP clients that start the command), or with --http on Streamable\n                               HTTP. Ends when stdin closes or on SIGINT/SIGTERM. Needs the package\n                               @modelcontextprotocol/server installed beside toolhost.\n  help                         Print this text.\n\nOptions:\n  --root DIR        Workspace directory (default: the current directory). Tools cannot read or\n                    write outside it: such a path gives the code outside_workspace.\n  --state-dir DIR   Keep tool state as files in DIR across runs (default: in memory, this run only).\n  --state URL       Keep tool state in Redis at URL (redis://host:port[/db]), shared by every\n                    toolhost process given the same URL and --root; needs the ioredis package.\n                    With mcp --http the server is stateless, so N processes behind a load\n                    balancer can each take any request: a request names its conversation with\n                    the Toolhost-Conversation header (else --conversation, else \"default\").\n  --timeout MS      Deadline of each call in milliseconds (default: none); a late call ends with\n                    the code timeout.\n  --tools MODULE    Also register the tools an ES module exports: every form new ToolRunner takes\n                    (defineTool({ name, description, inputSchema, execute }) with a JSON Schema\n                    or a zod/valibot/arktype schema, or { name, description, parameters, call }),\n                    alone, in an array or in an object, as named or default exports, in\n                    export-name order; repeatable. A tool with a built-in's name replaces it.\n  --read-only       Only read-only tools may run; others end with the code permission_denied.\n  --http HOST:PORT  mcp: serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (PORT 0\n                    picks a free one; the URL is printed on stderr). Browser origins other than\n                    localhost are refused.\n  --token TOKEN     mcp --http: require Authorization: Bearer TOKEN.\n  --conversation ID mcp: the conversation (tool state) of every call; default one per client session.\n  -h, --help        Print this text.\n  --version         Print the version.\n\nExit codes:\n  0    success; for run: end of input reached (failed calls and bad lines are reported as\n       result lines and do not change the exit code)\n  1    call: the tool call failed (the printed object has \"error\" and \"code\")\n  2    usage error (unknown command or option, missing tool name, arguments that are not a JSON\n       object, bad --timeout or --http, --root not an existing directory, a --tools module that\n       cannot be loaded or exports no tools); message on stderr\n  130  interrupted (SIGINT/SIGTERM); calls in flight end as cancelled\n\nExamples:\n  toolhost call view_file '{\"file_path\":\"README.md\",\"end_line\":20}'\n  toolhost call run_command '{\"command\":\"ls -la\"}' --root ./project\n  printf '%s\\n' '{\"id\":\"1\",\"name\":\"list_dir\",\"args\":{\"dir_path\":\".\"}}' | toolhost run\n  toolhost mcp --root .\n  toolhost mcp --root . --http 127.0.0.1:8765 --tools ./my-tools.js\n";
/**
 * Runs the `toolhost` command line (`argv` without node and the script) and resolves with the exit
 * code: 0 success, 1 failed `call`, 2 usage error, 130 interrupted (see {@link USAGE}). Never rejects
 * for a bad input; writes results to `io.stdout` and usage errors to `io.stderr`. Disposes its platform
 * (killing leftover `run_command` process groups) before it resolves.
 */
export declare function main(argv: readonly string[], io?: CliIo): Promise<number>;
