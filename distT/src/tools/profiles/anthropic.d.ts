import { type Tool } from '../../core/tool.js';
/** Anthropic's built-in tool type of the text editor this profile implements. */
export declare const TEXT_EDITOR_TOOL_TYPE = "text_editor_20250728";
/** Anthropic's built-in tool type of the bash tool this profile implements. */
export declare const BASH_TOOL_TYPE = "bash_20250124";
/**
 * How the text editor's description states its `maxCharacters`, so that a model client on the other
 * side of a worker boundary can declare it as Anthropic's `max_characters` (see the Anthropic client).
 */
export declare const MAX_CHARACTERS_NOTE = " View output is cut at ";
/** Arguments of `str_replace_based_edit_tool`, as Anthropic documents them. */
export interface TextEditorArgs {
    command: 'view' | 'create' | 'str_replace' | 'insert';
    path: string;
    view_range?: number[];
    file_text?: string;
    old_str?: string;
    new_str?: string;
    insert_line?: number;
    insert_text?: string;
}
/** The text editor's parameters: Anthropic's input shape, one schema for every command. */
export declare const TEXT_EDITOR_PARAMETERS: {
    readonly type: "object";
    readonly properties: {
        readonly command: {
            readonly type: "string";
            readonly enum: readonly ["view", "create", "str_replace", "insert"];
            readonly description: "The command to run.";
        };
        readonly path: {
            readonly type: "string";
            readonly description: "The file or directory: an absolute workspace path or one relative to the working directory.";
        };
        readonly view_range: {
            readonly type: "array";
            readonly items: {
                readonly type: "integer";
            };
            readonly minItems: 2;
            readonly maxItems: 2;
            readonly description: "view: [start_line, end_line], 1-based and inclusive; end_line -1 reads to the end of the file.";
        };
        readonly file_text: {
            readonly type: "string";
            readonly description: "create: the whole content of the file.";
        };
        readonly old_str: {
            readonly type: "string";
            readonly description: "str_replace: the exact text to replace; it must occur exactly once.";
        };
        readonly new_str: {
            readonly type: "string";
            readonly description: "str_replace: the replacement text (default empty). insert: accepted in place of insert_text.";
        };
        readonly insert_line: {
            readonly type: "integer";
            readonly minimum: 0;
            readonly description: "insert: the line after which the text goes; 0 inserts at the top of the file.";
        };
        readonly insert_text: {
            readonly type: "string";
            readonly description: "insert: the text to insert.";
        };
    };
    readonly required: readonly ["command", "path"];
    readonly additionalProperties: false;
};
/** The bash tool's parameters, as Anthropic documents them. */
export declare const BASH_PARAMETERS: {
    readonly type: "object";
    readonly properties: {
        readonly command: {
            readonly type: "string";
            readonly description: "The bash command to run.";
        };
        readonly restart: {
            readonly type: "boolean";
            readonly description: "Restart the shell session: the working directory and environment start afresh.";
        };
    };
    readonly additionalProperties: false;
};
/** Options of {@link anthropicTools}. */
export interface AnthropicProfileOptions {
    /** Longest `view` output in characters; longer output is cut with a note (Anthropic's `max_characters`). Default: no limit. */
    maxCharacters?: number;
}
/**
 * Anthropic's text editor (`str_replace_based_edit_tool`, the `text_editor_20250728` tool type) over the
 * workspace: `view` (a file as `N: line` lines, `view_range` `[start, end]` with `-1` for the end; a
 * directory as its entries two levels deep), `create` (writes `file_text`, creating folders; overwriting a
 * file changed since this conversation read it is `stale_file`, as `create_file`), `str_replace` (exact,
 * unique `old_str`, through `edit_file`, so CRLF and BOM files keep their style) and `insert` (`insert_text`,
 * or `new_str` as older docs name it, after `insert_line`, 0 = the top). `maxCharacters` cuts long views
 * with a note. Paths are confined as every built-in's. Results are text, as Anthropic's reference tool returns.
 *
 * Errors: `no_match` ("No match found for replacement. Please check your text and try again." and the
 * closest line), `ambiguous_match` ("Found N matches for replacement text. Please provide more context to
 * make a unique match."), `not_found`, `invalid_arguments` (a bad view_range or insert_line, a missing
 * argument, text holding half of a surrogate pair, which UTF-8 cannot store), `is_a_directory`, `binary_file`, `stale_file`, `outside_workspace`, `too_large`.
 */
export declare function textEditorTool(options?: AnthropicProfileOptions): Tool<TextEditorArgs, string>;
/**
 * Anthropic's bash tool (`bash_20250124`): `{ command }` runs in the conversation's persistent shell
 * (the platform's `shellSession`: on Node, the working directory and exported variables carry over
 * between calls), `{ restart: true }` starts the session afresh. Returns the output as text: stdout,
 * then stderr, then a line with the exit code when it is not 0 (or saying the command timed out, its
 * process group killed). The deadline is the call's (`timeoutMs`), else 120,000 ms. Where the platform
 * has no shell (browser, memory), an empty result with a note.
 */
export declare const bashTool: Tool<{
    command?: string;
    restart?: boolean;
}, string>;
/** The Anthropic profile's tools: `str_replace_based_edit_tool` and `bash` (a fresh array). */
export declare function anthropicTools(options?: AnthropicProfileOptions): Tool[];
