import type { Tool } from '../../core/tool.js';
import { type AnthropicProfileOptions } from './anthropic.js';
/** The names of the tool profiles. */
export type ToolProfileName = 'anthropic' | 'openai' | 'gemini' | 'toolhost';
/** The shape of {@link toolProfiles}. */
export interface ToolProfiles {
    /** Anthropic's text editor (`str_replace_based_edit_tool`) and `bash`. */
    anthropic(options?: AnthropicProfileOptions): Tool[];
    /** OpenAI's `apply_patch` (V4A) and `shell`. */
    openai(): Tool[];
    /** Gemini CLI's tool set (`read_file`, `write_file`, `replace`, `glob`, `list_directory`, `grep_search`, `run_shell_command`, `google_web_search`, `web_fetch`, and `search_file_content` unless `aliases: false`). */
    gemini(options?: {
        aliases?: boolean;
    }): Tool[];
    /** toolhost's own built-ins (`BuiltinTools.all()`) plus `web_fetch`. */
    toolhost(): Tool[];
    /** The profile for a name. */
    byName(name: ToolProfileName): Tool[];
    /**
     * Several profiles in one list, for one runner. Throws a TypeError naming the tool and both profiles
     * when two different tools share a name (the same tool in two lists is kept once).
     */
    combine(...lists: Tool[][]): Tool[];
}
/**
 * Each model family's native tools over one platform (the same confinement, durability, permissions,
 * plan mode, file cache and error codes as the built-ins, which the profile tools are built on):
 * `anthropic()`, `openai()`, `gemini()`, `toolhost()`. Each returns a fresh list for
 * `new ToolRunner({ tools })` or `Agent.builder().toolProfile(...)`; `combine` joins lists whose names
 * do not collide.
 */
export declare const toolProfiles: ToolProfiles;
