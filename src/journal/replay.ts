// Replaying a cassette: seed the files, run the calls turn by turn, stop at the first answer that differs.
import type { FsPromises } from '../core/fs-port.js';
import type { JsonValue } from '../core/json.js';
import type { Cassette, CassetteCall, CassetteFile, ReplayDrift, ReplayOptions, ReplayResult, ReplayRunner, RewindOptions } from '../core/journal-port.js';
import { clipForMessage } from '../core/message-text.js';
import { isInside, joinPath } from '../core/posix-path.js';
import type { ToolCall, ToolCallResult } from '../core/wire.js';
import { dirname } from '../fs/paths.js';
import { unifiedDiff } from '../tools/edit/diff.js';

/** What a replay reads of the journal of the runner it replays on. */
export interface ReplayTarget {
  readonly platform: { readonly root: string; readonly fs: FsPromises };
  /** Turns `conversationId` has had on this runner. */
  lastTurn(conversationId: string): number;
}

/** A call's outcome as compared: what the caller received, normalised. */
type Outcome = { result: JsonValue } | { error: { code: string; message: string } };

/**
 * Seeds `target`'s platform with `cassette`'s files, then runs its calls through `runner` turn by turn
 * (a batch as one `processToolCalls`, an `execute`, a `rewind`; turns with no recorded call as empty
 * batches, so turn numbers match) and compares each outcome with the recorded one, normalised. Stops
 * after the first turn with a call that answered otherwise. Throws a TypeError for a cassette that is
 * not one (naming the field), an incomplete one, a file outside the platform root, or a conversation
 * that has had turns on this runner.
 */
export async function replayCassette(target: ReplayTarget, cassette: Cassette, runner: ReplayRunner, options: ReplayOptions & { conversationId: string }): Promise<ReplayResult> {
  checkCassette(cassette);
  const { conversationId } = options;
  if (cassette.incomplete) throw new TypeError(`ToolRunner.replay: ${cassette.incomplete.note}; record the conversation again`);
  if (target.lastTurn(conversationId) !== 0) {
    throw new TypeError(`ToolRunner.replay: conversation ${JSON.stringify(conversationId)} has had turns on this runner; replay on a fresh runner or pass another conversationId`);
  }
  await seed(target.platform, cassette.files);
  const normalize = (value: JsonValue, call: CassetteCall, failed: boolean): JsonValue => {
    const normal = defaultNormalize(value);
    const at = { turn: call.turn, tool: call.tool, failed, ...(call.id === undefined ? {} : { id: call.id }) };
    return options.normalize ? options.normalize(normal, at) : normal;
  };
  let turn = 0;
  let turns = 0;
  let index = 0;
  while (index < cassette.calls.length) {
    const first = cassette.calls[index] as CassetteCall;
    let end = index + 1;
    while (first.via === 'batch' && end < cassette.calls.length && cassette.calls[end]?.turn === first.turn) end += 1;
    for (; turn < first.turn - 1; turn += 1) await runner.processToolCalls([], { conversationId });
    turn = first.turn;
    turns += 1;
    const group = cassette.calls.slice(index, end);
    const actual = await runTurn(runner, conversationId, group);
    for (const [k, call] of group.entries()) {
      const drift = await compare(call, index + k, actual[k], normalize);
      if (drift) return { ok: false, turns, calls: index + k + 1, drift, report: driftReport(conversationId, drift) };
    }
    index = end;
  }
  return { ok: true, turns, calls: index, report: `replay of ${JSON.stringify(conversationId)}: ${index} calls over ${turns} turns answered as recorded` };
}

/** Runs one turn's recorded calls and answers each one's outcome (a JSON copy of what the caller got). */
async function runTurn(runner: ReplayRunner, conversationId: string, group: readonly CassetteCall[]): Promise<Outcome[]> {
  const first = group[0] as CassetteCall;
  try {
    if (first.via === 'batch') {
      const calls = group.map((call): ToolCall => ({ ...(call.id === undefined ? {} : { id: call.id }), name: call.tool, args: call.input }));
      const results = await runner.processToolCalls(calls, { conversationId });
      return results.map((result: ToolCallResult) => ('code' in result ? { error: { code: result.code, message: result.error } } : { result: asJson(result.result) }));
    }
    if (first.via === 'execute') return [{ result: asJson(await runner.execute(first.tool, first.input, { conversationId })) }];
    return [{ result: asJson(await runner.rewind(conversationId, first.input as unknown as RewindOptions)) }];
  } catch (error) {
    // A rejection (an execute's ToolError, a host's TypeError) is that call's outcome, compared like any other.
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    return [{ error: { code: typeof code === 'string' ? code : error instanceof Error ? error.name : 'error', message } }];
  }
}

/** `value` as the cassette would hold it (fields that are `undefined` dropped). */
function asJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

/** The drift of `call` when `actual` differs from what it recorded, both normalised. */
async function compare(
  call: CassetteCall,
  index: number,
  actual: Outcome | undefined,
  normalize: (value: JsonValue, call: CassetteCall, failed: boolean) => JsonValue,
): Promise<ReplayDrift | undefined> {
  const side = (outcome: Outcome | undefined): JsonValue =>
    outcome === undefined ? null : 'error' in outcome ? { error: normalize(outcome.error, call, true) } : { result: normalize(outcome.result, call, false) };
  const recorded: Outcome = call.error !== undefined ? { error: call.error } : { result: call.result ?? null };
  const [expected, got] = [side(recorded), side(actual)];
  // A success where there was a failure (or the reverse) is shown whole: what each side answered.
  const flipped = actual === undefined || 'error' in recorded !== 'error' in actual;
  const found = flipped ? { path: '$', expected, actual: got } : firstDifference(expected, got, '$');
  if (!found) return undefined;
  const drift: ReplayDrift = { turn: call.turn, index, tool: call.tool, path: found.path, expected: found.expected, actual: found.actual, diff: await shortDiff(found) };
  if (call.id !== undefined) drift.id = call.id;
  return drift;
}

interface Difference {
  path: string;
  expected: JsonValue | undefined;
  actual: JsonValue | undefined;
}

/** The first place (depth first, keys in the recording's order, then the replay's extra keys) where two JSON values differ. */
export function firstDifference(expected: JsonValue | undefined, actual: JsonValue | undefined, path: string): Difference | undefined {
  if (expected === actual) return undefined;
  const bothObjects = typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null;
  if (!bothObjects || Array.isArray(expected) !== Array.isArray(actual)) return { path, expected, actual };
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i += 1) {
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  const a = expected as Record<string, JsonValue | undefined>;
  const b = actual as Record<string, JsonValue | undefined>;
  const keys = [...Object.keys(a), ...Object.keys(b).filter((key) => !Object.hasOwn(a, key))];
  for (const key of keys) {
    const found = firstDifference(a[key], b[key], `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`);
    if (found) return found;
  }
  return undefined;
}

/** Most characters of each side a `- expected` / `+ actual` line shows. */
const SIDE_CHARS = 300;

/** A unified diff when both sides are text over one line, else one `-` and one `+` line of JSON (`(nothing)` for a missing side). */
async function shortDiff(found: Difference): Promise<string> {
  const { expected, actual } = found;
  if (typeof expected === 'string' && typeof actual === 'string' && (expected.includes('\n') || actual.includes('\n'))) {
    try {
      return await unifiedDiff(found.path, expected, actual);
    } catch {
      // Falls through to the one-line form.
    }
  }
  const show = (value: JsonValue | undefined): string => (value === undefined ? '(nothing)' : clipForMessage(JSON.stringify(value), SIDE_CHARS));
  return `- ${show(expected)}\n+ ${show(actual)}`;
}

function driftReport(conversationId: string, drift: ReplayDrift): string {
  const call = `${drift.id === undefined ? '' : `id ${drift.id}, `}tool ${drift.tool}`;
  return `replay of ${JSON.stringify(conversationId)} drifted at turn ${drift.turn}, call ${drift.index + 1} of the cassette (${call}), at ${drift.path}:\n${drift.diff}`;
}

/** The one value toolhost itself makes vary: the timestamp in a generated image's default name. */
function defaultNormalize(value: JsonValue): JsonValue {
  if (typeof value === 'string') return value.replace(/generated-\d{10,}\.png/g, 'generated-<timestamp>.png');
  if (Array.isArray(value)) return value.map(defaultNormalize);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = defaultNormalize(item);
    return out;
  }
  return value;
}

/** Writes the cassette's files (creating folders) and removes those it says were absent. */
async function seed(platform: ReplayTarget['platform'], files: readonly CassetteFile[]): Promise<void> {
  const root = joinPath(platform.root);
  for (const file of files) {
    const path = joinPath(file.path);
    if (!isInside(root, path)) {
      throw new TypeError(`ToolRunner.replay: the cassette's file ${JSON.stringify(file.path)} is outside this platform's root (${platform.root}); replay on a platform rooted as the recording's`);
    }
  }
  for (const file of files) {
    const path = joinPath(file.path);
    if (file.absent) {
      await platform.fs.rm(path, { force: true }).catch(() => undefined);
      continue;
    }
    await platform.fs.mkdir(dirname(path), { recursive: true });
    await platform.fs.writeFile(path, file.text ?? Uint8Array.from(atob(file.base64 ?? ''), (c) => c.charCodeAt(0)));
  }
}

/** Throws a TypeError naming the first field of `cassette` that is not as {@link Cassette} says. */
function checkCassette(cassette: Cassette): void {
  const fail = (what: string): never => {
    throw new TypeError(`ToolRunner.replay: ${what}; pass what ToolRunner.cassette() made (or its JSON.parse'd text)`);
  };
  if (typeof cassette !== 'object' || cassette === null) fail(`the cassette must be an object, not ${String(cassette)}`);
  if (cassette.version !== 1) fail(`cassette version ${JSON.stringify(cassette.version)} is not one this toolhost reads (1)`);
  if (typeof cassette.conversationId !== 'string' || typeof cassette.root !== 'string') fail('the cassette has no conversationId or root');
  if (!Array.isArray(cassette.files) || !Array.isArray(cassette.calls)) fail('the cassette has no files or calls array');
  for (const [i, file] of cassette.files.entries()) {
    const ok = typeof file?.path === 'string' && (typeof file.text === 'string' || typeof file.base64 === 'string' || file.absent === true);
    if (!ok) fail(`files[${i}] must be { path, text }, { path, base64 } or { path, absent: true }`);
  }
  let previous: CassetteCall | undefined;
  for (const [i, call] of cassette.calls.entries()) {
    const ok =
      typeof call === 'object' && call !== null && Number.isSafeInteger(call.turn) && call.turn >= Math.max(1, previous?.turn ?? 0) &&
      ['batch', 'execute', 'rewind'].includes(call.via) && typeof call.tool === 'string' && (call.error === undefined) !== (call.result === undefined);
    if (!ok) fail(`calls[${i}] must be { turn, via, tool, input?, result | error } with turns in order`);
    // Only a batch has several calls in one turn.
    if (previous?.turn === call.turn && (call.via !== 'batch' || previous.via !== 'batch')) fail(`calls[${i}] shares turn ${call.turn} with the call before it, but only a batch's calls may`);
    previous = call;
  }
}
