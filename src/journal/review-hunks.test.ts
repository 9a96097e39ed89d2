import { describe, expect, it } from 'vitest';
import { defineTool, type ToolContext } from '../core/tool.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner } from '../runner.js';
import { seededRandom } from '../../test/support/random.js';
import { applyRegions, diffLines, groupHunks, splitLines } from './review-hunks.js';

// Differential test of review mode's hunks: a base of unique lines (mixed \n and \r\n, the last line
// sometimes without one) and edit sites far enough apart to be one hunk each. The reference result of
// accepting a subset of the sites is built from the sites themselves; the runner's accept must write
// exactly that, and rejecting the rest must leave the model seeing exactly the workspace.

interface Site {
  at: number;
  removed: number;
  added: string[];
}

/** The base's lines with the chosen sites applied, joined (the reference). */
function withSites(base: string[], sites: readonly Site[], chosen: (i: number) => boolean): string {
  let out = '';
  let at = 0;
  sites.forEach((site, i) => {
    for (; at < site.at; at += 1) out += base[at];
    if (chosen(i)) out += site.added.join('');
    else for (let k = site.at; k < site.at + site.removed; k += 1) out += base[k];
    at = site.at + site.removed;
  });
  for (; at < base.length; at += 1) out += base[at];
  return out;
}

function randomCase(random: () => number): { base: string[]; sites: Site[] } {
  const count = 10 + Math.floor(random() * 60);
  const base = Array.from({ length: count }, (_, i) => `b${i}${random() < 0.3 ? '\r\n' : '\n'}`);
  if (random() < 0.4) base[count - 1] = `b${count - 1}`;
  const sites: Site[] = [];
  let at = Math.floor(random() * 4);
  while (at < count) {
    const removed = Math.min(count - at, Math.floor(random() * 3));
    const adding = removed === 0 ? 1 + Math.floor(random() * 2) : Math.floor(random() * 3);
    const added = Array.from({ length: adding }, (_, j) => `n${sites.length}_${j}\n`);
    // A site that removes the last line puts back a last line of the same ending, so the text stays well formed.
    sites.push({ at, removed, added });
    at += removed + 8 + Math.floor(random() * 10);
  }
  return { base, sites };
}

const writeTool = defineTool({
  name: 'write_exact',
  description: 'writes text as given',
  parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] },
  callWithContext: async (args: { path: string; text: string }, ctx: ToolContext) => ctx.fs.writeFile(args.path, args.text),
});

const readTool = defineTool({
  name: 'read_exact',
  description: 'reads text as it is',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  annotations: { readOnlyHint: true },
  callWithContext: async (args: { path: string }, ctx: ToolContext) => new TextDecoder().decode(await ctx.fs.readFile(args.path)),
});

describe('review mode hunks (differential)', () => {
  it('line regions of unique lines are exactly the edit sites; applying all gives the target, none the base', () => {
    const random = seededRandom(0x5eed);
    for (let n = 0; n < 200; n += 1) {
      const { base, sites } = randomCase(random);
      const target = withSites(base, sites, () => true);
      const after = splitLines(target);
      const regions = diffLines(base, after);
      expect(regions.map((r) => [r.oldStart, r.oldEnd - r.oldStart])).toEqual(sites.map((s) => [s.at, s.removed]));
      expect(applyRegions(base, after, regions, () => true)).toBe(target);
      expect(applyRegions(base, after, regions, () => false)).toBe(base.join(''));
    }
  });

  it('on lines that repeat, the regions are a fewest-lines change (checked against a longest common subsequence table) and apply to the target exactly', () => {
    const random = seededRandom(0x1c5);
    const pick = (): string => ['x\n', 'y\n', 'z\n', 'x'][Math.floor(random() * 4)] as string;
    for (let n = 0; n < 300; n += 1) {
      const a = Array.from({ length: Math.floor(random() * 30) }, pick);
      const b = Array.from({ length: Math.floor(random() * 30) }, pick);
      const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      const regions = diffLines(a, b);
      const changed = regions.reduce((sum, r) => sum + (r.oldEnd - r.oldStart) + (r.newEnd - r.newStart), 0);
      expect(changed).toBe(a.length + b.length - 2 * lcs[0]![0]!);
      expect(applyRegions(a, b, regions, () => true)).toBe(b.join(''));
      expect(applyRegions(a, b, regions, () => false)).toBe(a.join(''));
    }
  });

  it('two edits 5,000 lines apart in a 10,000-line file are two hunks', () => {
    const a = Array.from({ length: 10_000 }, (_, i) => `line ${i}\n`);
    const b = [...a];
    b[100] = 'changed near the top\n';
    b.splice(5200, 0, 'added lower down\n');
    const hunks = groupHunks(diffLines(a, b), a.length, b.length);
    expect(hunks.map((h) => [h.oldFrom, h.oldTo, h.newFrom, h.newTo])).toEqual([
      [97, 104, 97, 104],
      [5197, 5203, 5197, 5204],
    ]);
  });

  it('accepting a random subset of hunks writes exactly those sites; rejecting the rest leaves the model seeing the workspace', async () => {
    const random = seededRandom(0xacce97);
    for (let n = 0; n < 60; n += 1) {
      const { base, sites } = randomCase(random);
      const platform = createMemoryPlatform({ files: { 'f.txt': base.join('') } });
      const runner = new ToolRunner({ platform, tools: [writeTool, readTool], review: true });
      await runner.execute('write_exact', { path: '/workspace/f.txt', text: withSites(base, sites, () => true) });
      expect(await runner.execute('read_exact', { path: '/workspace/f.txt' })).toBe(withSites(base, sites, () => true));
      const hunks = (await runner.pendingChanges()).files[0]!.hunks;
      expect(hunks.length).toBe(sites.length);
      const chosen = sites.map(() => random() < 0.5);
      const ids = hunks.filter((_, i) => chosen[i]).map((hunk) => hunk.id);
      if (ids.length > 0) await runner.accept('default', { hunks: ids });
      const expected = withSites(base, sites, (i) => chosen[i] === true);
      expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/f.txt'))).toBe(expected);
      await runner.reject('default', {});
      expect((await runner.pendingChanges()).files).toEqual([]);
      // The rejection's note rides on this text result, as its last line in brackets.
      const note = chosen.every(Boolean)
        ? ''
        : `${expected === '' || expected.endsWith('\n') ? '' : '\n'}[Review: the user rejected changes you made. The files below are as described now; read them again before changing them further.\n` +
          '- /workspace/f.txt: all your pending changes to it were rejected; it now holds what the workspace holds.]';
      expect(await runner.execute('read_exact', { path: '/workspace/f.txt' })).toBe(expected + note);
      expect(await runner.execute('read_exact', { path: '/workspace/f.txt' })).toBe(expected);
    }
  });
});
