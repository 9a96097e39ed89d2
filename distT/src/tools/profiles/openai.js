import { ToolError } from '../../core/errors.js';
import { defineTool } from '../../core/tool.js';
import { refuseLoneSurrogate, truncateText } from '../../fs/text.js';
import { applyPatchOperations, checkOperationPath, parseChunks, parseCreateDiff, parsePatch, } from '../apply-patch/index.js';
import { RUN_COMMAND_DEFAULT_TIMEOUT_MS, RUN_COMMAND_MAX_TIMEOUT_MS } from '../run-command.js';
/** The parameters of `apply_patch` when declared as a function tool: one `input` string, as Codex declares it. */
export const APPLY_PATCH_FUNCTION_PARAMETERS = {
    type: 'object',
    properties: {
        input: { type: 'string', description: 'The entire contents of the apply_patch command: "*** Begin Patch" ... "*** End Patch".' },
    },
    required: ['input'],
    additionalProperties: false,
};
const applyPatchParameters = {
    type: 'object',
    properties: {
        input: APPLY_PATCH_FUNCTION_PARAMETERS.properties.input,
        operation: {
            type: 'object',
            description: 'One file operation of the Responses API apply_patch tool (instead of input).',
            properties: {
                type: { type: 'string', enum: ['create_file', 'update_file', 'delete_file'] },
                path: { type: 'string', description: 'The file, relative to the workspace.' },
                diff: { type: 'string', description: 'V4A diff: "+" lines for create_file, "@@" hunks for update_file.' },
            },
            required: ['type', 'path'],
            additionalProperties: false,
        },
    },
    additionalProperties: false,
};
const APPLY_PATCH_DESCRIPTION = [
    'Edit files with a patch in the V4A format. The patch is wrapped in "*** Begin Patch" and "*** End Patch"; between them,',
    'one or more file operations:',
    '"*** Add File: <path>" followed by the new file\'s lines, each starting with "+";',
    '"*** Delete File: <path>";',
    '"*** Update File: <path>", optionally "*** Move to: <new path>", then hunks. A hunk starts with "@@" (optionally',
    '"@@ <a line that comes before the change>", such as a class or function header) followed by lines starting with',
    '" " (unchanged context: three lines before and after each change), "-" (removed) or "+" (added).',
    '"*** End of File" after a hunk that ends at the end of the file. Paths are relative to the workspace, never absolute.',
    'Context is matched exactly, then ignoring trailing whitespace, then ignoring surrounding whitespace. All files of a',
    'patch change together or none does.',
].join(' ');
/** The operations of `apply_patch`'s arguments (either form), parsed. */
export function applyPatchArgsToOperations(args) {
    if ((args.input === undefined) === (args.operation === undefined)) {
        throw new ToolError('invalid_arguments', 'give either input (the whole "*** Begin Patch" ... "*** End Patch" text) or operation, not both or neither');
    }
    if (args.input !== undefined) {
        refuseLoneSurrogate('input', args.input);
        return parsePatch(args.input);
    }
    const op = args.operation;
    const path = checkOperationPath(op.path);
    if (op.type === 'delete_file')
        return [{ type: 'delete', path }];
    if (op.diff === undefined)
        throw new ToolError('invalid_arguments', `operation ${op.type} needs a diff`);
    refuseLoneSurrogate('operation.diff', op.diff);
    if (op.type === 'create_file')
        return [{ type: 'add', path, content: parseCreateDiff(op.diff, path) }];
    const lines = op.diff.replace(/\r\n/g, '\n').split('\n');
    while (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    const chunks = parseChunks(lines, path);
    if (chunks.length === 0)
        throw new ToolError('invalid_arguments', `the diff for ${path} has no hunks; add "@@" hunks with " ", "-" and "+" lines`);
    return [{ type: 'update', path, chunks }];
}
/**
 * `apply_patch` as OpenAI's models are trained on it: a V4A patch, either as Codex's function tool
 * does (`{ input }` holding `*** Begin Patch` ... `*** End Patch` with Add / Update / Move / Delete
 * operations) or as one Responses API operation (`{ operation: { type: 'create_file' | 'update_file'
 * | 'delete_file', path, diff } }`, the diff headerless). Context is found tolerantly (exact, then
 * ignoring trailing whitespace, then surrounding whitespace), CRLF and BOM files keep their style, and
 * a patch of several files is applied all or nothing (see `applyPatchOperations`). Returns
 * `{ output, changes }`, `output` being Codex's summary (`Success. Updated the following files:` and
 * `A`/`M`/`D` lines).
 *
 * Errors: `invalid_arguments` for a malformed patch (naming the line: missing `*** End Patch`, a `+`
 * line outside a hunk, an absolute path, `..`) or one holding half of a surrogate pair (UTF-8 cannot store it), `no_match` quoting the context line not found,
 * `not_found`, `already_exists`, `binary_file`, `stale_file`, `outside_workspace`.
 */
export const applyPatchTool = /* @__PURE__ */ defineTool({
    name: 'apply_patch',
    annotations: { title: 'Apply patch', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    description: APPLY_PATCH_DESCRIPTION,
    parameters: applyPatchParameters,
    callWithContext: async (args, ctx) => applyPatchOperations(ctx, applyPatchArgsToOperations(args)),
});
function capOutput(text, max) {
    if (max === undefined)
        return text;
    const { text: kept, cut } = truncateText(text, max);
    return cut === 0 ? text : `${kept}\n… [${cut} characters cut]`;
}
async function runEach(args, ctx) {
    const platform = ctx.platform;
    if (!platform.capabilities.runCommand || typeof platform.runCommand !== 'function') {
        return { output: [], note: platform.name === 'web' ? 'shell is not available in the browser' : `shell is not available on the ${platform.name} platform` };
    }
    const output = [];
    const timeoutMs = Math.min(args.timeoutMs ?? RUN_COMMAND_DEFAULT_TIMEOUT_MS, RUN_COMMAND_MAX_TIMEOUT_MS);
    for (const command of args.commands) {
        const run = await platform.runCommand({ command, cwd: ctx.cwd, timeoutMs }, ctx.signal);
        output.push({
            stdout: capOutput(run.stdout, args.maxOutputLength),
            stderr: capOutput(run.stderr, args.maxOutputLength),
            outcome: run.timed_out ? { type: 'timeout' } : { type: 'exit', exitCode: run.exit_code },
        });
        if (run.timed_out)
            break;
    }
    const result = { output };
    if (args.maxOutputLength !== undefined)
        result.maxOutputLength = args.maxOutputLength;
    return result;
}
/**
 * `shell` as OpenAI's models call it (`{ commands: string[], timeoutMs?, maxOutputLength? }`): each
 * command runs in turn through the platform's `run_command` machinery in the working directory (its
 * own process group, killed whole at `timeoutMs`, default 120,000, at most 600,000), and the result
 * lists `{ stdout, stderr, outcome }` per command, `outcome` `{ type: 'exit', exitCode }` or
 * `{ type: 'timeout' }` (a timeout stops the remaining commands). `maxOutputLength` caps each stream,
 * in characters. Where there is no shell (browser, memory) it succeeds with no output and a note.
 */
export const shellTool = /* @__PURE__ */ defineTool({
    name: 'shell',
    annotations: { title: 'Shell', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    description: 'Run shell commands in the workspace, one after another. Give commands (an array of command lines), optionally ' +
        `timeoutMs (per command, default ${RUN_COMMAND_DEFAULT_TIMEOUT_MS}) and maxOutputLength (characters kept per stream). ` +
        'Returns each command\'s stdout, stderr and outcome (exit code, or timeout). Commands are not interactive.',
    parameters: {
        type: 'object',
        properties: {
            commands: { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, description: 'Command lines to run, in order.' },
            timeoutMs: { type: 'integer', minimum: 1, maximum: RUN_COMMAND_MAX_TIMEOUT_MS, description: 'Deadline of each command in ms.' },
            maxOutputLength: { type: 'integer', minimum: 1, description: 'Characters of stdout and of stderr kept per command.' },
        },
        required: ['commands'],
        additionalProperties: false,
    },
    callWithContext: async (args, ctx) => runEach(args, ctx),
});
/** The OpenAI profile's tools: `apply_patch` and `shell` (a fresh array). */
export function openaiTools() {
    return [applyPatchTool, shellTool];
}
//# sourceMappingURL=openai.js.map