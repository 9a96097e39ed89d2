import { expect } from 'vitest';
import type { Platform } from '../../src/core/platform.js';
import type { ToolCall } from '../../src/core/wire.js';
import { ToolRunner } from '../../src/runner.js';
import { toolProfiles } from '../../src/tools/profiles/index.js';
import { seededRandom } from './random.js';

// The differential test of the change journal, shared by its Node and Chromium runs: seeded random turns of writing calls from several
// conversations through every profile's writers, outside writes between them, and rewinds to random
// turns. A plain Map is the reference workspace; the reference rewind restores, per file a
// conversation changed after the turn, the content before its first later change, unless the file is
// no longer what the conversation left (a conflict).

const WRITERS = ['create_file', 'edit_file', 'apply_patch', 'str_replace_based_edit_tool', 'write_file', 'replace'];
const PATHS = ['a.txt', 'b.txt', 'd/c.txt', 'd/e/f.txt', 'g.md', 'h/i.txt'];
const CONVERSATIONS = ['c0', 'c1', 'c2'];

type Content = string | null;

/** One planned call and the content it leaves at each path it changes when it succeeds. */
interface Planned {
  call: ToolCall;
  changes: [path: string, after: Content][];
}

/** A conversation as the reference keeps it: its turn counter and, per turn that changed files, each file's before/after. */
interface ModelConversation {
  last: number;
  turns: { turn: number; files: Map<string, { before: Content; after: Content }> }[];
}

function writers(): Parameters<typeof toolProfiles.combine>[0] {
  return [...toolProfiles.toolhost(), ...toolProfiles.openai(), ...toolProfiles.anthropic(), ...toolProfiles.gemini()].filter((tool) => WRITERS.includes(tool.name));
}

/** A random call that changes `path` (whose content is `now`; `free` a path with no file, or undefined), with the content it leaves. */
function planCall(random: () => number, path: string, now: Content, token: () => string, free: string | undefined): Planned {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const fresh = (): string => Array.from({ length: 1 + Math.floor(random() * 4) }, () => token()).join('\n') + '\n';
  if (now === null) {
    const content = fresh();
    const tool = pick(['create_file', 'write_file', 'str_replace_based_edit_tool', 'apply_patch']);
    const args =
      tool === 'create_file' ? { file_path: path, content }
      : tool === 'write_file' ? { file_path: path, content }
      : tool === 'str_replace_based_edit_tool' ? { command: 'create', path, file_text: content }
      : { input: `*** Begin Patch\n*** Add File: ${path}\n${content.split('\n').slice(0, -1).map((line) => `+${line}`).join('\n')}\n*** End Patch` };
    return { call: { name: tool, args }, changes: [[path, content]] };
  }
  const lines = now.split('\n').slice(0, -1);
  const roll = random();
  if (roll < 0.1) return { call: { name: 'apply_patch', args: { input: `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch` } }, changes: [[path, null]] };
  if (roll < 0.25) {
    const content = fresh();
    const tool = pick(['create_file', 'write_file']);
    return { call: { name: tool, args: tool === 'create_file' ? { file_path: path, content, overwrite: true } : { file_path: path, content } }, changes: [[path, content]] };
  }
  const at = Math.floor(random() * lines.length);
  const old = lines[at] as string;
  const replacement = token();
  const after = [...lines.slice(0, at), replacement, ...lines.slice(at + 1)].join('\n') + '\n';
  if (free !== undefined && roll < 0.45) {
    // A move with an edit: apply_patch's `*** Move to:` renames the file.
    const input = `*** Begin Patch\n*** Update File: ${path}\n*** Move to: ${free}\n@@\n-${old}\n+${replacement}\n*** End Patch`;
    return { call: { name: 'apply_patch', args: { input } }, changes: [[path, null], [free, after]] };
  }
  const tool = pick(['edit_file', 'replace', 'str_replace_based_edit_tool', 'apply_patch']);
  const args =
    tool === 'edit_file' ? { file_path: path, old_string: old, new_string: replacement }
    : tool === 'replace' ? { file_path: path, old_string: old, new_string: replacement }
    : tool === 'str_replace_based_edit_tool' ? { command: 'str_replace', path, old_str: old, new_str: replacement }
    : { input: `*** Begin Patch\n*** Update File: ${path}\n@@\n-${old}\n+${replacement}\n*** End Patch` };
  return { call: { name: tool, args }, changes: [[path, after]] };
}

/** Every file under `dir` (relative path → text), directories walked. */
async function workspace(platform: Platform, dir = platform.root, prefix = ''): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await platform.fs.readdir(dir, { withFileTypes: true })) {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) for (const [path, text] of await workspace(platform, `${dir}/${entry.name}`, `${rel}/`)) out.set(path, text);
    else out.set(rel, new TextDecoder().decode(await platform.fs.readFile(`${dir}/${entry.name}`)));
  }
  return out;
}

/** The reference rewind of `conversation` to `toTurn` over `files`: what it restores, where it meets conflicts. */
function modelRewind(conversation: ModelConversation, files: Map<string, string>, toTurn: number, force: boolean): { restore: Map<string, Content>; conflicts: string[]; before: Map<string, Content> } {
  const plan = new Map<string, { target: Content; expected: Content }>();
  for (const turn of conversation.turns) {
    if (turn.turn <= toTurn) continue;
    for (const [path, change] of turn.files) {
      const item = plan.get(path);
      if (item) item.expected = change.after;
      else plan.set(path, { target: change.before, expected: change.after });
    }
  }
  const restore = new Map<string, Content>();
  const before = new Map<string, Content>();
  const conflicts: string[] = [];
  for (const [path, { target, expected }] of plan) {
    const now = files.get(path) ?? null;
    if (now === target) continue;
    if (now === expected || force) {
      restore.set(path, target);
      before.set(path, now);
    } else conflicts.push(path);
  }
  return { restore, conflicts, before };
}

function setContent(files: Map<string, string>, path: string, content: Content): void {
  if (content === null) files.delete(path);
  else files.set(path, content);
}

/** Runs `steps` random steps on `platform`, checking the workspace against the reference after each; answers counts seen. */
export async function runDifferential(platform: Platform, seed: number, steps: number): Promise<Record<string, number>> {
  const random = seededRandom(seed);
  const runner = new ToolRunner({ platform, tools: writers() });
  const files = new Map<string, string>();
  const model = new Map(CONVERSATIONS.map((id) => [id, { last: 0, turns: [] } as ModelConversation]));
  const seen = { turns: 0, calls: 0, stale: 0, outside: 0, rewinds: 0, restored: 0, conflicts: 0, forced: 0, dryRuns: 0, moves: 0 };
  let counter = 0;
  const token = (): string => `line <${(counter += 1)}>`;
  const abs = (path: string): string => `${platform.root}/${path}`;
  const rel = (path: string): string => path.slice(platform.root.length + 1);
  for (let step = 0; step < steps; step += 1) {
    const roll = random();
    const id = CONVERSATIONS[Math.floor(random() * CONVERSATIONS.length)] as string;
    const conversation = model.get(id) as ModelConversation;
    if (roll < 0.6) {
      // A turn of 1–3 calls on distinct files, as one execute or one processToolCalls batch.
      const count = 1 + Math.floor(random() * 3);
      const shuffled = [...PATHS].sort(() => random() - 0.5);
      const paths = shuffled.slice(0, count);
      // A path no call of the turn uses and no file holds, for a move.
      const free = () => shuffled.slice(count).find((path) => !files.has(path) && !taken.has(path));
      const taken = new Set<string>();
      const planned = paths.map((path) => {
        const plan = planCall(random, path, files.get(path) ?? null, token, free());
        for (const [changed] of plan.changes) taken.add(changed);
        return plan;
      });
      const results =
        count === 1 && random() < 0.5
          ? await runner.execute(planned[0]!.call.name, planned[0]!.call.args, { conversationId: id }).then(
              (result) => [{ result }],
              (error: { code: string; message: string }) => [{ code: error.code, error: error.message }],
            )
          : await runner.processToolCalls(planned.map((p) => p.call), { conversationId: id });
      conversation.last += 1;
      seen.turns += 1;
      const changed = new Map<string, { before: Content; after: Content }>();
      results.forEach((result, i) => {
        const { changes, call } = planned[i] as Planned;
        if ('code' in result) {
          // Another party changed the file since this conversation last saw it: the tools refuse, and nothing changes.
          expect(result.code, `${call.name} ${JSON.stringify(call.args)}: ${result.error}`).toBe('stale_file');
          seen.stale += 1;
          return;
        }
        seen.calls += 1;
        if (changes.length === 2) seen.moves += 1;
        for (const [path, after] of changes) {
          changed.set(path, { before: files.get(path) ?? null, after });
          setContent(files, path, after);
        }
      });
      if (changed.size > 0) conversation.turns.push({ turn: conversation.last, files: changed });
    } else if (roll < 0.8) {
      // Someone else: a direct write or removal through the platform's fs, which no journal sees.
      const path = PATHS[Math.floor(random() * PATHS.length)] as string;
      seen.outside += 1;
      if (files.has(path) && random() < 0.3) {
        await platform.fs.unlink(abs(path));
        files.delete(path);
      } else {
        const content = `${token()}\n${token()}\n`;
        await platform.fs.mkdir(abs(path).slice(0, abs(path).lastIndexOf('/')), { recursive: true });
        await platform.fs.writeFile(abs(path), content);
        files.set(path, content);
      }
    } else {
      const toTurn = Math.floor(random() * (conversation.last + 1));
      const force = random() < 0.15;
      const dryRun = random() < 0.15;
      const expected = modelRewind(conversation, files, toTurn, force);
      const result = await runner.rewind(id, { toTurn, force, dryRun });
      seen.rewinds += 1;
      expect(result.unreachable).toBeUndefined();
      expect(result.restored.map(rel).sort(), `rewind ${id} to ${toTurn}`).toEqual([...expected.restore.keys()].sort());
      expect(result.conflicts.map((conflict) => rel(conflict.path)).sort()).toEqual([...expected.conflicts].sort());
      for (const conflict of result.conflicts) expect(conflict.diff).not.toBe('');
      seen.conflicts += result.conflicts.length;
      if (dryRun) {
        seen.dryRuns += 1;
        expect(result.turn).toBeUndefined();
      } else if (expected.restore.size > 0) {
        seen.restored += expected.restore.size;
        if (force) seen.forced += 1;
        conversation.last += 1;
        expect(result.turn).toBe(conversation.last);
        const rewound = new Map<string, { before: Content; after: Content }>();
        for (const [path, target] of expected.restore) {
          rewound.set(path, { before: expected.before.get(path) ?? null, after: target });
          setContent(files, path, target);
        }
        conversation.turns.push({ turn: conversation.last, files: rewound });
      }
    }
    expect(Object.fromEntries(await workspace(platform)), `after step ${step}`).toEqual(Object.fromEntries(files));
  }
  return seen;
}

