import { describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { seededRandom } from './support/random.js';

const WORDS = ['alpha', 'beta', 'gamma', '  indented', '\ttabbed', 'x = 1;', '', '}', 'return y', 'é ünïcode', '💥'];

interface Edit {
  at: number;
  remove: number;
  insert: string[];
}

/** A random file of unique lines and non-overlapping edits at least 6 lines apart, with enough context to be unique. */
function scenario(random: () => number): { lines: string[]; edits: Edit[]; eol: string; finalBreak: boolean } {
  const count = 8 + Math.floor(random() * 60);
  const lines = Array.from({ length: count }, (_, i) => `${WORDS[Math.floor(random() * WORDS.length)]} <${i}>`);
  const edits: Edit[] = [];
  let at = 2 + Math.floor(random() * 4);
  while (at < count - 3 && edits.length < 6) {
    const remove = Math.floor(random() * 3);
    const insert = Array.from({ length: remove === 0 ? 1 + Math.floor(random() * 2) : Math.floor(random() * 3) }, (_, j) => `${WORDS[Math.floor(random() * WORDS.length)]} new${edits.length}.${j}`);
    edits.push({ at, remove, insert });
    at += remove + 6 + Math.floor(random() * 8);
  }
  return { lines, edits, eol: random() < 0.3 ? '\r\n' : '\n', finalBreak: random() < 0.8 };
}

const join = (lines: string[], eol: string, finalBreak: boolean): string => lines.join(eol) + (finalBreak && lines.length > 0 ? eol : '');

function direct(lines: string[], edits: Edit[]): string[] {
  const out = lines.slice();
  for (const edit of [...edits].reverse()) out.splice(edit.at, edit.remove, ...edit.insert);
  return out;
}

function asPatch(lines: string[], edits: Edit[]): string {
  const out = ['*** Begin Patch', '*** Update File: f.txt'];
  for (const edit of edits) {
    out.push('@@');
    for (let i = Math.max(0, edit.at - 2); i < edit.at; i += 1) out.push(` ${lines[i]}`);
    for (let i = edit.at; i < edit.at + edit.remove; i += 1) out.push(`-${lines[i]}`);
    for (const line of edit.insert) out.push(`+${line}`);
    for (let i = edit.at + edit.remove; i < Math.min(lines.length, edit.at + edit.remove + 2); i += 1) out.push(` ${lines[i]}`);
  }
  out.push('*** End Patch');
  return out.join('\n');
}

describe('differential fuzz: V4A patches and str_replace calls against direct edits', () => {
  it('gives the same file bytes three ways on 300 random files and edit sets', async () => {
    const random = seededRandom(0x5eed16);
    for (let round = 0; round < 300; round += 1) {
      const { lines, edits, eol, finalBreak } = scenario(random);
      const original = join(lines, eol, finalBreak);
      const expected = join(direct(lines, edits), eol, finalBreak);
      const platform = createMemoryPlatform({ files: { 'f.txt': original, 'g.txt': original } });
      const runner = new ToolRunner({ platform, tools: toolProfiles.combine(toolProfiles.openai(), toolProfiles.anthropic()) });
      if (edits.length > 0) await runner.execute('apply_patch', { input: asPatch(lines, edits) });
      for (const edit of [...edits].reverse()) {
        const before = lines.slice(Math.max(0, edit.at - 1), edit.at);
        const old = [...before, ...lines.slice(edit.at, edit.at + edit.remove)].join('\n');
        const replacement = [...before, ...edit.insert].join('\n');
        await runner.execute('str_replace_based_edit_tool', { command: 'str_replace', path: 'g.txt', old_str: old, new_str: replacement });
      }
      const patched = new TextDecoder().decode(await platform.fs.readFile('/workspace/f.txt'));
      const replaced = new TextDecoder().decode(await platform.fs.readFile('/workspace/g.txt'));
      expect({ round, patched }).toEqual({ round, patched: expected });
      expect({ round, replaced }).toEqual({ round, replaced: expected });
    }
  });
});
