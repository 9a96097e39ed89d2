import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../../runner.js';
import { toolProfiles } from '../../tools/profiles/index.js';
import { toAnthropicTools } from './anthropic.js';
import { toOpenAITools } from './openai.js';

describe('native tool declarations', () => {
  it('declares the Anthropic profile as Anthropic built-in tool types, the text editor with its default max_characters', () => {
    const runner = new ToolRunner({ tools: toolProfiles.anthropic() });
    expect(toAnthropicTools(runner.declarations()).tools).toEqual([
      { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 100_000 },
      { type: 'bash_20250124', name: 'bash' },
    ]);
  });

  it('declares the text editor\'s maxCharacters as max_characters', () => {
    const runner = new ToolRunner({ tools: toolProfiles.anthropic({ maxCharacters: 20_000 }) });
    expect(toAnthropicTools(runner.declarations()).tools[0]).toEqual({ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool', max_characters: 20_000 });
  });

  it('keeps a look-alike bash of your own a JSON-Schema function', () => {
    const declaration = { name: 'bash', description: 'mine', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } };
    expect(toAnthropicTools([declaration]).tools).toEqual([{ name: 'bash', description: 'mine', input_schema: declaration.parameters }]);
  });

  it('declares apply_patch to chat completions as Codex does: a function with one input string', () => {
    const runner = new ToolRunner({ tools: toolProfiles.openai() });
    const [patch] = toOpenAITools(runner.declarations()).tools;
    expect(patch).toEqual({
      type: 'function',
      function: {
        name: 'apply_patch',
        description: runner.declarations()[0]?.description,
        parameters: {
          type: 'object',
          properties: { input: { type: 'string', description: 'The entire contents of the apply_patch command: "*** Begin Patch" ... "*** End Patch".' } },
          required: ['input'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });
});
