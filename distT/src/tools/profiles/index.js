import { BuiltinTools } from '../index.js';
import { webFetchTool } from '../web-fetch.js';
import { anthropicTools } from './anthropic.js';
import { geminiTools } from './gemini.js';
import { openaiTools } from './openai.js';
const profileOf = new WeakMap();
function tag(name, tools) {
    for (const tool of tools)
        if (!profileOf.has(tool))
            profileOf.set(tool, name);
    return tools;
}
/**
 * Each model family's native tools over one platform (the same confinement, durability, permissions,
 * plan mode, file cache and error codes as the built-ins, which the profile tools are built on):
 * `anthropic()`, `openai()`, `gemini()`, `toolhost()`. Each returns a fresh list for
 * `new ToolRunner({ tools })` or `Agent.builder().toolProfile(...)`; `combine` joins lists whose names
 * do not collide.
 */
export const toolProfiles = {
    anthropic: (options) => tag('anthropic', anthropicTools(options)),
    openai: () => tag('openai', openaiTools()),
    gemini: (options) => tag('gemini', geminiTools(options)),
    toolhost: () => tag('toolhost', [...BuiltinTools.all(), webFetchTool]),
    byName(name) {
        if (name === 'anthropic')
            return this.anthropic();
        if (name === 'openai')
            return this.openai();
        if (name === 'gemini')
            return this.gemini();
        if (name === 'toolhost')
            return this.toolhost();
        throw new TypeError(`unknown tool profile ${JSON.stringify(name)}; use anthropic, openai, gemini or toolhost`);
    },
    combine(...lists) {
        const byName = new Map();
        for (const tool of lists.flat()) {
            const known = byName.get(tool.name);
            if (known === undefined)
                byName.set(tool.name, tool);
            else if (known !== tool) {
                const a = profileOf.get(known) ?? 'your tools';
                const b = profileOf.get(tool) ?? 'your tools';
                throw new TypeError(`tool name collision: ${tool.name} is in both ${a} and ${b} with different definitions; one runner cannot host both. ` +
                    'Leave one profile out, or drop one of the two tools from its list');
            }
        }
        return [...byName.values()];
    },
};
//# sourceMappingURL=index.js.map