import { describe, expect, it } from 'vitest';
import { toolProfiles } from './index.js';

// A profile option the host got wrong is a TypeError saying what is allowed, never ignored.
describe('profile options', () => {
  const names = (tools: Array<{ name: string }>): string[] => tools.map((tool) => tool.name);

  it('refuses a bad maxCharacters and names what is allowed', () => {
    const allowed = 'a positive whole number of characters (leave it out for the default, 100,000)';
    for (const [value, shown] of [['x', '"x"'], [-5, '-5'], [0, '0'], [1.5, '1.5'], [Number.NaN, 'NaN'], [Infinity, 'Infinity']] as const) {
      expect(() => toolProfiles.anthropic({ maxCharacters: value as never })).toThrow(new TypeError(`toolProfiles.anthropic: maxCharacters must be ${allowed}, not ${shown}`));
    }
  });

  it('refuses a misspelled option with a did-you-mean', () => {
    expect(() => toolProfiles.anthropic({ maxCharacter: 5 } as never)).toThrow(new TypeError('toolProfiles.anthropic: maxCharacter is not an option (did you mean maxCharacters?)'));
    expect(() => toolProfiles.gemini({ alias: false } as never)).toThrow(new TypeError('toolProfiles.gemini: alias is not an option (did you mean aliases?)'));
  });

  it('refuses options that are not an object, and a gemini aliases that is not a boolean', () => {
    expect(() => toolProfiles.gemini('x' as never)).toThrow(new TypeError('toolProfiles.gemini: options must be an object, not "x"'));
    expect(() => toolProfiles.anthropic(null as never)).toThrow(new TypeError('toolProfiles.anthropic: options must be an object, not null'));
    expect(() => toolProfiles.gemini({ aliases: 'no' } as never)).toThrow(new TypeError('toolProfiles.gemini: aliases must be true or false, not "no"'));
  });

  it('refuses options given to a profile that takes none', () => {
    expect(() => (toolProfiles.openai as (o: unknown) => unknown)({ maxCharacters: 5 })).toThrow(
      new TypeError('toolProfiles.openai takes no options; leave them out (got {"maxCharacters":5})'),
    );
    expect(() => (toolProfiles.toolhost as (o: unknown) => unknown)('x')).toThrow(new TypeError('toolProfiles.toolhost takes no options; leave them out (got "x")'));
  });

  it('refuses combine arguments that are not lists of tools', () => {
    expect(() => toolProfiles.combine(toolProfiles.openai(), 5 as never)).toThrow(
      new TypeError('toolProfiles.combine: argument 2 must be an array of tools such as toolProfiles.openai(), not 5'),
    );
    expect(() => toolProfiles.combine([null] as never)).toThrow(new TypeError('toolProfiles.combine: argument 1, item 0 must be a tool with a name, not null'));
  });

  it('keeps accepting what the docs show', () => {
    expect(names(toolProfiles.anthropic())).toEqual(['str_replace_based_edit_tool', 'bash']);
    expect(names(toolProfiles.anthropic({}))).toEqual(['str_replace_based_edit_tool', 'bash']);
    expect(names(toolProfiles.anthropic({ maxCharacters: 20_000 }))).toEqual(['str_replace_based_edit_tool', 'bash']);
    expect(names(toolProfiles.anthropic({ maxCharacters: undefined }))).toEqual(['str_replace_based_edit_tool', 'bash']);
    expect(names(toolProfiles.gemini({ aliases: false }))).not.toContain('search_file_content');
    expect(names(toolProfiles.gemini())).toContain('search_file_content');
    expect(names((toolProfiles.openai as (o: unknown) => Array<{ name: string }>)({}))).toEqual(['apply_patch', 'shell']);
    expect(names(toolProfiles.combine(toolProfiles.openai(), toolProfiles.toolhost())).length).toBeGreaterThan(2);
    for (const name of ['anthropic', 'openai', 'gemini', 'toolhost'] as const) expect(toolProfiles.byName(name).length).toBeGreaterThan(0);
  });
});
