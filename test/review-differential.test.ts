import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Platform } from '../src/core/platform.js';
import { defineTool, type ToolContext } from '../src/core/tool.js';
import type { ToolCall } from '../src/core/wire.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { ToolRunner } from '../src/runner.js';
import { toolProfiles } from '../src/tools/profiles/index.js';
import { createNodePlatform } from '../node/platform.js';
import { seededRandom } from './support/random.js';

// Differential test of review mode: seeded random writes of one reviewed conversation through every
// profile's writers, writes of someone else straight to the workspace, and the host accepting and
// rejecting files. The reference is two maps: the workspace, and per staged path what the workspace
// held when the conversation first changed it (its base) and what the conversation left there. After
// every step the model's view, the workspace and the pending list must match the reference.

const WRITERS = ['create_file', 'edit_file', 'apply_patch', 'str_replace_based_edit_tool', 'write_file', 'replace'];
const PATHS = ['a.txt', 'b.txt', 'd/c.txt', 'd/e/f.txt', 'g.md'];
const ID = 'reviewed';

type Content = string | null;

/** A staged path in the reference: the workspace's content when first staged, and the conversation's. */
interface Entry {
  base: Content;
  content: Content;
}

/** Reads a file in the calling conversation's view: `{ text }`, null text when there is none. */
const readTool = defineTool({
  name: 'read_view',
  description: 'reads a file as the conversation sees it',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  annotations: { readOnlyHint: true },
  callWithContext: async (args: { path: string }, ctx: ToolContext) => {
    try {
      return { text: new TextDecoder().decode(await ctx.fs.readFile(args.path)) };
    } catch {
      return { text: null };
    }
  },
});

/** A random writing call on `path` (its content in the view `now`), with what it leaves at each path it changes. */
function planCall(random: () => number, path: string, now: Content, token: () => string, free: string | undefined): { call: ToolCall; changes: [string, Content][] } {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const fresh = (): string => Array.from({ length: 1 + Math.floor(random() * 3) }, () => token()).join('\n') + '\n';
  if (now === null) {
    const content = fresh();
    const tool = pick(['create_file', 'write_file', 'str_replace_based_edit_tool', 'apply_patch']);
    const args =
      tool === 'create_file' || tool === 'write_file' ? { file_path: path, content }
      : tool === 'str_replace_based_edit_tool' ? { command: 'create', path, file_text: content }
      : { input: `*** Begin Patch\n*** Add File: ${path}\n${content.slice(0, -1).split('\n').map((line) => `+${line}`).join('\n')}\n*** End Patch` };
    return { call: { name: tool, args }, changes: [[path, content]] };
  }
  const lines = now.split('\n').slice(0, -1);
  const roll = random();
  if (roll < 0.12) return { call: { name: 'apply_patch', args: { input: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch` } }, changes: [[path, null]] };
  if (roll < 0.25) {
    const content = fresh();
    return { call: { name: 'create_file', args: { file_path: path, content, overwrite: true } }, changes: [[path, content]] };
  }
  const at = Math.floor(random() * lines.length);
  const old = lines[at] as string;
  const by = token();
  const after = [...lines.slice(0, at), by, ...lines.slice(at + 1)].join('\n') + '\n';
  if (free !== undefined && roll < 0.4) {
    const input = `*** Begin Patch\n*** Update File: ${path}\n*** Move to: ${free}\n@@\n-${old}\n+${by}\n*** End Patch`;
    return { call: { name: 'apply_patch', args: { input } }, changes: [[path, null], [free, after]] };
  }
  const tool = pick(['edit_file', 'replace', 'str_replace_based_edit_tool', 'apply_patch']);
  const args =
    tool === 'edit_file' || tool === 'replace' ? { file_path: path, old_string: old, new_string: by }
    : tool === 'str_replace_based_edit_tool' ? { command: 'str_replace', path, old_str: old, new_str: by }
    : { input: `*** Begin Patch\n*** Update File: ${path}\n@@\n-${old}\n+${by}\n*** End Patch` };
  return { call: { name: tool, args }, changes: [[path, after]] };
}

/** Runs `steps` random steps on `platform`; answers the counts of what happened. */
async function runDifferential(platform: Platform, seed: number, steps: number): Promise<Record<string, number>> {
  const random = seededRandom(seed);
  const tools = [...toolProfiles.toolhost(), ...toolProfiles.openai(), ...toolProfiles.anthropic(), ...toolProfiles.gemini()].filter((tool) => WRITERS.includes(tool.name));
  const runner = new ToolRunner({ platform, tools: [...tools, readTool], review: (id) => id === ID });
  const workspace = new Map<string, string>();
  const staged = new Map<string, Entry>();
  const seen = { calls: 0, stale: 0, outside: 0, accepted: 0, rejected: 0, conflicts: 0, moves: 0 };
  let counter = 0;
  const token = (): string => `line <${(counter += 1)}>`;
  const abs = (path: string): string => `${platform.root}/${path}`;
  const view = (path: string): Content => (staged.has(path) ? (staged.get(path) as Entry).content : (workspace.get(path) ?? null));
  const stage = (path: string, content: Content): void => {
    const entry = staged.get(path) ?? { base: workspace.get(path) ?? null, content };
    entry.content = content;
    if (entry.content === entry.base) staged.delete(path);
    else staged.set(path, entry);
  };
  for (let step = 0; step < steps; step += 1) {
    const roll = random();
    if (roll < 0.55) {
      const path = PATHS[Math.floor(random() * PATHS.length)] as string;
      const free = PATHS.find((other) => other !== path && view(other) === null);
      const plan = planCall(random, path, view(path), token, free);
      const [result] = await runner.processToolCalls([plan.call], { conversationId: ID });
      if ('code' in result!) {
        // The view changed under what the model last read (an accept, a reject, someone else): the tools refuse.
        expect(result.code, `${plan.call.name} ${JSON.stringify(plan.call.args)}: ${result.error}`).toBe('stale_file');
        seen.stale += 1;
      } else {
        seen.calls += 1;
        if (plan.changes.length === 2) seen.moves += 1;
        for (const [changed, after] of plan.changes) stage(changed, after);
      }
    } else if (roll < 0.7) {
      const path = PATHS[Math.floor(random() * PATHS.length)] as string;
      const content = `${token()}\n`;
      await platform.fs.mkdir(abs(path).slice(0, abs(path).lastIndexOf('/')), { recursive: true });
      await platform.fs.writeFile(abs(path), content);
      workspace.set(path, content);
      seen.outside += 1;
    } else {
      const chosen = [...staged.keys()].filter(() => random() < 0.6).sort();
      if (random() < 0.6) {
        const result = await runner.accept(ID, { paths: chosen.map(abs) });
        const conflicts = chosen.filter((path) => (workspace.get(path) ?? null) !== (staged.get(path) as Entry).base);
        expect(result.conflicts.map((c) => c.path)).toEqual(conflicts.map(abs));
        expect(result.written).toEqual(chosen.filter((path) => !conflicts.includes(path)).map(abs));
        for (const path of chosen) {
          if (conflicts.includes(path)) continue;
          const { content } = staged.get(path) as Entry;
          if (content === null) workspace.delete(path);
          else workspace.set(path, content);
          staged.delete(path);
        }
        seen.accepted += result.written.length;
        seen.conflicts += conflicts.length;
      } else {
        await runner.reject(ID, { paths: chosen.map(abs) });
        for (const path of chosen) staged.delete(path);
        seen.rejected += chosen.length;
      }
    }
    const pending = await runner.pendingChanges(ID);
    expect(pending.files.map((f) => [f.path, f.conflict !== undefined])).toEqual(
      [...staged.keys()].sort().map((path) => [abs(path), (workspace.get(path) ?? null) !== (staged.get(path) as Entry).base]),
    );
    const views = await runner.processToolCalls(PATHS.map((path) => ({ name: 'read_view', args: { path: abs(path) } })), { conversationId: ID });
    expect(views.map((r) => (r as { result: { text: Content } }).result.text), `view after step ${step}`).toEqual(PATHS.map(view));
    const onDisk = await Promise.all(PATHS.map((path) => platform.fs.readFile(abs(path)).then((bytes) => new TextDecoder().decode(bytes), () => null)));
    expect(onDisk, `workspace after step ${step}`).toEqual(PATHS.map((path) => workspace.get(path) ?? null));
  }
  return seen;
}

describe('review mode (differential)', () => {
  it('matches the reference on the memory platform: views, workspace, pending list, accepts with conflicts and rejects', async () => {
    const seen = await runDifferential(createMemoryPlatform(), 0x7e71e3, 250);
    expect(Object.values(seen).every((count) => count > 0), JSON.stringify(seen)).toBe(true);
  });

  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('matches the reference on Node, a real directory', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'review-diff-')));
    dirs.push(dir);
    const platform = createNodePlatform({ root: dir });
    try {
      const seen = await runDifferential(platform, 0x5a11, 120);
      expect([seen.calls! > 0, seen.accepted! > 0, seen.rejected! > 0, seen.conflicts! > 0], JSON.stringify(seen)).toEqual([true, true, true, true]);
    } finally {
      await platform.dispose();
    }
  });
});
