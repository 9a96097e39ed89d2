import { arrayInstead, describeValue } from '../../core/options.js';
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

/** A profile that takes no options: anything but nothing or `{}` is a TypeError (a misspelled option is never ignored). */
function noOptions(where: string, options: unknown): void {
  const empty = typeof options === 'object' && options !== null && !Array.isArray(options) && Object.values(options).every((v) => v === undefined);
  if (options !== undefined && !empty) throw new TypeError(`${where} takes no options; leave them out (got ${describeValue(options)})`);
}

/** Each of `lists` an array of tools, else a TypeError naming the list and the item. */
function checkLists(lists: readonly unknown[]): void {
  lists.forEach((list, i) => {
    if (!Array.isArray(list)) {
      throw new TypeError(`toolProfiles.combine: argument ${i + 1} must be an array of tools such as toolProfiles.openai(), not ${describeValue(list)}${arrayInstead(list)}`);
    }
    list.forEach((tool: unknown, j) => {
      if (typeof tool !== 'object' || tool === null || typeof (tool as { name?: unknown }).name !== 'string') {
        throw new TypeError(`toolProfiles.combine: argument ${i + 1}, item ${j} must be a tool with a name, not ${describeValue(tool)}`);
      }
    });
  });
}

function tag(name: ToolProfileName, tools: ExecuteTool[]): ExecuteTool[] {
  for (const tool of tools) if (!profileOf.has(tool)) profileOf.set(tool, name);
  return tools;
}

/** The shape of {@link toolProfiles}. */
export interface ToolProfiles {
  /** Anthropic's text editor (`str_replace_based_edit_tool`) and `bash`; `maxCharacters` must be a positive whole number. */
  anthropic(options?: AnthropicProfileOptions): ExecuteTool[];
  /** OpenAI's `apply_patch` (V4A) and `shell`. Takes no options. */
  openai(): ExecuteTool[];
  /** Gemini CLI's tool set (`read_file`, `write_file`, `replace`, `glob`, `list_directory`, `grep_search`, `run_shell_command`, `google_web_search`, `web_fetch`, and `search_file_content` unless `aliases: false`). */
  gemini(options?: { aliases?: boolean }): ExecuteTool[];
  /** toolhost's own built-ins (`BuiltinTools.all()`) plus `web_fetch`. Takes no options. */
  toolhost(): ExecuteTool[];
  /** The profile for a name. */
  byName(name: ToolProfileName): ExecuteTool[];
  /**
   * Several profiles in one list, for one runner. Throws a TypeError naming the tool and both profiles
   * when two different tools share a name (the same tool in two lists is kept once), or naming the
   * argument that is not an array of tools.
   */
  combine(...lists: ExecuteTool[][]): ExecuteTool[];
}

/**
 * Each model family's native tools over one platform (the same confinement, durability, permissions,
 * plan mode, file cache and error codes as the built-ins, which the profile tools are built on):
 * `anthropic()`, `openai()`, `gemini()`, `toolhost()`. Each returns a fresh list for
 * `new ToolRunner({ tools })` or `Agent.builder().toolProfile(...)`; `combine` joins lists whose names
 * do not collide. Every message, hint and note a profile's tool returns names that profile's own tools
 * and parameters (see `speakingTools`). Options are checked: a bad value or an unknown key (with a
 * "did you mean") is a TypeError saying what is accepted, never silently ignored.
 */
export const toolProfiles: ToolProfiles = {
  anthropic: (options) => tag('anthropic', anthropicTools(options)),
  openai: (...args: unknown[]) => {
    noOptions('toolProfiles.openai', args[0]);
    return tag('openai', speakingTools(openaiTools(), OPENAI_VOCABULARY));
  },
  gemini: (options) => tag('gemini', speakingTools(geminiTools(options), GEMINI_VOCABULARY)),
  toolhost: (...args: unknown[]) => {
    noOptions('toolProfiles.toolhost', args[0]);
    return tag('toolhost', [...BuiltinTools.all(), webFetchTool as ExecuteTool]);
  },
  byName(name) {
    if (name === 'anthropic') return this.anthropic();
    if (name === 'openai') return this.openai();
    if (name === 'gemini') return this.gemini();
    if (name === 'toolhost') return this.toolhost();
    throw new TypeError(`unknown tool profile ${JSON.stringify(name)}; use anthropic, openai, gemini or toolhost`);
  },
  combine(...lists) {
    checkLists(lists);
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
