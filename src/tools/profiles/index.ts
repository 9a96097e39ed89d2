import type { ExecuteTool } from '../../core/tool.js';
import { BuiltinTools } from '../index.js';
import { webFetchTool } from '../web-fetch.js';
import { anthropicTools, type AnthropicProfileOptions } from './anthropic.js';
import { geminiTools } from './gemini.js';
import { openaiTools } from './openai.js';
import { GEMINI_VOCABULARY, OPENAI_VOCABULARY, speakingTools } from './vocabulary.js';

/** The names of the tool profiles. */
export type ToolProfileName = 'anthropic' | 'openai' | 'gemini' | 'toolhost';

const profileOf = new WeakMap<object, ToolProfileName>();

function tag(name: ToolProfileName, tools: ExecuteTool[]): ExecuteTool[] {
  for (const tool of tools) if (!profileOf.has(tool)) profileOf.set(tool, name);
  return tools;
}

/** The shape of {@link toolProfiles}. */
export interface ToolProfiles {
  /** Anthropic's text editor (`str_replace_based_edit_tool`) and `bash`. */
  anthropic(options?: AnthropicProfileOptions): ExecuteTool[];
  /** OpenAI's `apply_patch` (V4A) and `shell`. */
  openai(): ExecuteTool[];
  /** Gemini CLI's tool set (`read_file`, `write_file`, `replace`, `glob`, `list_directory`, `grep_search`, `run_shell_command`, `google_web_search`, `web_fetch`, and `search_file_content` unless `aliases: false`). */
  gemini(options?: { aliases?: boolean }): ExecuteTool[];
  /** toolhost's own built-ins (`BuiltinTools.all()`) plus `web_fetch`. */
  toolhost(): ExecuteTool[];
  /** The profile for a name. */
  byName(name: ToolProfileName): ExecuteTool[];
  /**
   * Several profiles in one list, for one runner. Throws a TypeError naming the tool and both profiles
   * when two different tools share a name (the same tool in two lists is kept once).
   */
  combine(...lists: ExecuteTool[][]): ExecuteTool[];
}

/**
 * Each model family's native tools over one platform (the same confinement, durability, permissions,
 * plan mode, file cache and error codes as the built-ins, which the profile tools are built on):
 * `anthropic()`, `openai()`, `gemini()`, `toolhost()`. Each returns a fresh list for
 * `new ToolRunner({ tools })` or `Agent.builder().toolProfile(...)`; `combine` joins lists whose names
 * do not collide. Every message, hint and note a profile's tool returns names that profile's own tools
 * and parameters (see `speakingTools`).
 */
export const toolProfiles: ToolProfiles = {
  anthropic: (options) => tag('anthropic', anthropicTools(options)),
  openai: () => tag('openai', speakingTools(openaiTools(), OPENAI_VOCABULARY)),
  gemini: (options) => tag('gemini', speakingTools(geminiTools(options), GEMINI_VOCABULARY)),
  toolhost: () => tag('toolhost', [...BuiltinTools.all(), webFetchTool as ExecuteTool]),
  byName(name) {
    if (name === 'anthropic') return this.anthropic();
    if (name === 'openai') return this.openai();
    if (name === 'gemini') return this.gemini();
    if (name === 'toolhost') return this.toolhost();
    throw new TypeError(`unknown tool profile ${JSON.stringify(name)}; use anthropic, openai, gemini or toolhost`);
  },
  combine(...lists) {
    const byName = new Map<string, ExecuteTool>();
    for (const tool of lists.flat()) {
      const known = byName.get(tool.name);
      if (known === undefined) byName.set(tool.name, tool);
      else if (known !== tool) {
        const a = profileOf.get(known) ?? 'your tools';
        const b = profileOf.get(tool) ?? 'your tools';
        throw new TypeError(
          `tool name collision: ${tool.name} is in both ${a} and ${b} with different definitions; one runner cannot host both. ` +
            'Leave one profile out, or drop one of the two tools from its list',
        );
      }
    }
    return [...byName.values()];
  },
};
