import { type Tool } from '../../core/tool.js';
import { type PatchOperation, type PatchResult } from '../apply-patch/index.js';
/** A Responses API apply_patch operation, as an `apply_patch_call` carries it. */
export interface ApplyPatchOperation {
    type: 'create_file' | 'update_file' | 'delete_file';
    path: string;
    /** V4A diff: all `+` lines for `create_file`, `@@` hunks without file headers for `update_file`; absent for `delete_file`. */
    diff?: string;
}
/** Arguments of `apply_patch`: the Codex envelope in `input`, or one Responses API `operation`. */
export interface ApplyPatchArgs {
    input?: string;
    operation?: ApplyPatchOperation;
}
/** The parameters of `apply_patch` when declared as a function tool: one `input` string, as Codex declares it. */
export declare const APPLY_PATCH_FUNCTION_PARAMETERS: {
    readonly type: "object";
    readonly properties: {
        readonly input: {
            readonly type: "string";
            readonly description: "The entire contents of the apply_patch command: \"*** Begin Patch\" ... \"*** End Patch\".";
        };
    };
    readonly required: readonly ["input"];
    readonly additionalProperties: false;
};
/** The operations of `apply_patch`'s arguments (either form), parsed. */
export declare function applyPatchArgsToOperations(args: ApplyPatchArgs): PatchOperation[];
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
export declare const applyPatchTool: Tool<ApplyPatchArgs, PatchResult>;
/** Arguments of `shell`, as the OpenAI Agents SDK's shell action names them. */
export interface ShellArgs {
    commands: string[];
    timeoutMs?: number;
    maxOutputLength?: number;
}
/** One command's output in a `shell` result. */
export interface ShellCommandOutput {
    stdout: string;
    stderr: string;
    outcome: {
        type: 'exit';
        exitCode: number | null;
    } | {
        type: 'timeout';
    };
}
/** Result of `shell`: one entry per command run (a timeout stops the rest); a note where there is no shell. */
export interface ShellResult {
    output: ShellCommandOutput[];
    maxOutputLength?: number;
    note?: string;
}
/**
 * `shell` as OpenAI's models call it (`{ commands: string[], timeoutMs?, maxOutputLength? }`): each
 * command runs in turn through the platform's `run_command` machinery in the working directory (its
 * own process group, killed whole at `timeoutMs`, default 120,000, at most 600,000), and the result
 * lists `{ stdout, stderr, outcome }` per command, `outcome` `{ type: 'exit', exitCode }` or
 * `{ type: 'timeout' }` (a timeout stops the remaining commands). `maxOutputLength` caps each stream,
 * in characters. Where there is no shell (browser, memory) it succeeds with no output and a note.
 */
export declare const shellTool: Tool<ShellArgs, ShellResult>;
/** The OpenAI profile's tools: `apply_patch` and `shell` (a fresh array). */
export declare function openaiTools(): Tool[];
