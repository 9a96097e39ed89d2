// Cassettes: a conversation's tool calls as its callers received them, and the files it started from.
import type { FsPromises } from '../core/fs-port.js';
import type { Cassette, CassetteCall, CassetteFile, RecordedCall } from '../core/journal-port.js';
import { encodeBase64 } from '../fs/mime.js';
import { isInside, joinPath } from '../core/posix-path.js';
import { isContent, type ConversationJournal } from './model.js';

/**
 * One recorded call: a JSON copy of its {@link CassetteCall} made when it was recorded (objects and
 * arrays copied, strings shared, as they cannot change), or, for a value a plain copy cannot stand for
 * (a `toJSON`, a class instance, a bigint, a cycle), its JSON text.
 */
type TapeCall = { value: CassetteCall } | { text: string };

/** One recorded turn: its calls (copied when recorded, so later changes to a result are not seen). */
interface TapeTurn {
  conversationId: string;
  turn: number;
  calls: TapeCall[];
  /** UTF-16 code units of the calls' JSON (see {@link jsonCopy} for how strings count). */
  size: number;
}

/** A conversation's recorded turns, oldest first from `head` on, and the last turn dropped to keep within the bound. */
interface TapeConversation {
  turns: TapeTurn[];
  /** Index of the oldest turn still held in `turns` (those before it were dropped). */
  head: number;
  /** The last turn whose calls were dropped to keep the tape within its bound. */
  droppedThrough?: number;
  /** The last turn recorded by an earlier process (a journal taken up from a durable store): calls are kept in memory only. */
  unrecordedThrough?: number;
}

/** Drops the first `head` entries of `list` once they are most of it (so a drop costs O(1) amortized); answers the new head. */
function compact<T>(list: T[], head: number): number {
  if (head < 1024 || head * 2 < list.length) return head;
  list.splice(0, head);
  return 0;
}

/**
 * The calls of every conversation of a runner, within `maxChars` UTF-16 code units of JSON in all:
 * past it the oldest turns (of any conversation) are dropped, and their conversation notes the last
 * one dropped. Recording copies what JSON would keep (no text is made); the JSON is only made when a
 * cassette is asked for.
 */
export class CallTape {
  readonly maxChars: number;
  readonly #conversations = new Map<string, TapeConversation>();
  /** Every held turn in the order recorded (all conversations), from `#head` on. */
  readonly #order: TapeTurn[] = [];
  #head = 0;
  #chars = 0;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
  }

  /** UTF-16 code units held in all. */
  get chars(): number {
    return this.#chars;
  }

  /** Keeps `calls` as turn `turn` of `conversationId` (a copy); then applies the bound. Never throws. */
  record(conversationId: string, turn: number, calls: readonly RecordedCall[]): void {
    if (calls.length === 0) return;
    const taped: TapeTurn = { conversationId, turn, calls: [], size: 0 };
    for (const call of calls) {
      const [entry, size] = tapeCall(turn, call);
      taped.calls.push(entry);
      taped.size += size;
    }
    this.#conversation(conversationId).turns.push(taped);
    this.#order.push(taped);
    this.#chars += taped.size;
    while (this.#chars > this.maxChars && this.#head < this.#order.length) {
      const oldest = this.#order[this.#head] as TapeTurn;
      this.#order[this.#head] = undefined as unknown as TapeTurn;
      this.#head = compact(this.#order, this.#head + 1);
      // Turns are recorded in one order for all: the oldest of all is the oldest of its conversation.
      const conversation = this.#conversation(oldest.conversationId);
      conversation.turns[conversation.head] = undefined as unknown as TapeTurn;
      conversation.head = compact(conversation.turns, conversation.head + 1);
      conversation.droppedThrough = Math.max(conversation.droppedThrough ?? 0, oldest.turn);
      this.#chars -= oldest.size;
    }
  }

  /** The calls of `conversationId` still held, in order (fresh objects each time), and the last turn dropped. */
  calls(conversationId: string): { calls: CassetteCall[]; droppedThrough?: number; unrecordedThrough?: number } {
    const conversation = this.#conversations.get(conversationId);
    if (!conversation) return { calls: [] };
    // By turn number: overlapping `execute`s of one conversation may end out of order.
    const turns = conversation.turns.slice(conversation.head).sort((a, b) => a.turn - b.turn);
    const calls = turns.flatMap((turn) => turn.calls.map((call) => JSON.parse('text' in call ? call.text : JSON.stringify(call.value)) as CassetteCall));
    return {
      calls,
      ...(conversation.droppedThrough === undefined ? {} : { droppedThrough: conversation.droppedThrough }),
      ...(conversation.unrecordedThrough === undefined ? {} : { unrecordedThrough: conversation.unrecordedThrough }),
    };
  }

  /** Notes that turns up to `turn` of `conversationId` were not recorded here (a journal taken up from a durable store). */
  unrecorded(conversationId: string, turn: number): void {
    if (turn <= 0) return;
    const conversation = this.#conversation(conversationId);
    conversation.unrecordedThrough = Math.max(conversation.unrecordedThrough ?? 0, turn);
  }

  #conversation(conversationId: string): TapeConversation {
    let found = this.#conversations.get(conversationId);
    if (!found) {
      found = { turns: [], head: 0 };
      this.#conversations.set(conversationId, found);
    }
    return found;
  }
}

/** Thrown by {@link jsonCopy} for a value a plain copy cannot stand for: JSON.stringify decides then. */
const NOT_PLAIN = Symbol('not plain');

/** Deepest nesting {@link jsonCopy} follows (a cycle is deeper than any bound): past it JSON.stringify decides. */
const MAX_DEPTH = 100;

/**
 * What `JSON.parse(JSON.stringify(value))` gives, for plain data (null, booleans, numbers, strings,
 * arrays and objects whose prototype is Array's, Object's or null, with no `toJSON`), made without
 * JSON text: strings are shared. Adds to `size[0]` the UTF-16 code units of its JSON, each string
 * counted at its length and quotes (escapes are not counted, which would mean reading every string).
 * Throws {@link NOT_PLAIN} for anything else (and what a getter throws).
 */
function jsonCopy(value: unknown, size: [number], depth: number): unknown {
  switch (typeof value) {
    case 'string':
      size[0] += value.length + 2;
      return value;
    case 'number': {
      const number = Number.isFinite(value) ? value + 0 : null;
      size[0] += number === null ? 4 : String(number).length;
      return number;
    }
    case 'boolean':
      size[0] += value ? 4 : 5;
      return value;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (value === null) {
    size[0] += 4;
    return null;
  }
  if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') throw NOT_PLAIN;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (Array.isArray(value)) {
    if (proto !== Array.prototype) throw NOT_PLAIN;
    const out: unknown[] = new Array(value.length);
    size[0] += 2 + Math.max(0, value.length - 1);
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
        size[0] += 4;
        out[i] = null;
      } else out[i] = jsonCopy(item, size, depth + 1);
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  let members = 0;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    const copy = jsonCopy(item, size, depth + 1);
    // A key `__proto__` is data in JSON: assigned, it would set the prototype instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
    size[0] += key.length + 3;
    members += 1;
  }
  size[0] += 2 + Math.max(0, members - 1);
  return out;
}

/** A recorded call as its {@link CassetteCall} (a plain copy, else JSON text) and its size; an input that is not JSON is kept as a note of why. */
function tapeCall(turn: number, call: RecordedCall): [TapeCall, number] {
  const out: CassetteCall = { turn, via: call.via, tool: call.tool };
  if (call.id !== undefined) out.id = call.id;
  if (call.error !== undefined) out.error = { code: call.error.code, message: call.error.message };
  else out.result = (call.result ?? null) as CassetteCall['result'];
  const withInput = { ...out, ...(call.input === undefined ? {} : { input: call.input }) };
  try {
    const size: [number] = [0];
    return [{ value: jsonCopy(withInput, size, 0) as CassetteCall }, size[0]];
  } catch {
    // Not plain data, or a getter threw: JSON.stringify decides, as it did before copies were made this way.
  }
  let text: string;
  try {
    text = JSON.stringify(withInput);
  } catch (error) {
    // A host's `execute` may pass what JSON cannot hold (a bigint, a cycle): kept as a note, so a replay drifts there.
    text = JSON.stringify({ ...out, input: { notJson: error instanceof Error ? error.message : String(error) } });
  }
  return [{ text }, text.length];
}

/** What {@link exportCassette} reads of the journal. */
export interface CassetteSource {
  readonly platform: { readonly root: string; readonly fs: FsPromises };
  readonly tape: CallTape;
  conversation(conversationId: string): ConversationJournal;
  blob(image: string): Promise<Uint8Array | undefined>;
}

/** Most files one `include` folder adds to a cassette; past it the cassette is refused with a TypeError. */
export const MAX_INCLUDED_FILES = 10_000;

/**
 * The cassette of `conversationId` (see docs/journal.md, Replay): its calls from the tape and, as its
 * starting files, the pre-image of each file's first change in the journal plus the files (or folders)
 * `include` names, read now. Throws a TypeError for an `include` path outside the platform root or a
 * folder of more than {@link MAX_INCLUDED_FILES} files.
 */
export async function exportCassette(source: CassetteSource, conversationId: string, include: readonly string[]): Promise<Cassette> {
  const { calls, droppedThrough: callsDropped, unrecordedThrough } = source.tape.calls(conversationId);
  const journal = source.conversation(conversationId);
  const files = new Map<string, CassetteFile>();
  const lost: string[] = [];
  for (const turn of journal.turns) {
    for (const call of turn.calls) {
      for (const change of call.files) {
        if (files.has(change.path) || lost.includes(change.path)) continue;
        const file = await fileOf(source, change.path, change.before);
        if (file) files.set(change.path, file);
        else lost.push(change.path);
      }
    }
  }
  for (const path of include) {
    for (const [at, bytes] of await readIncluded(source.platform, path)) {
      if (!files.has(at) && !lost.includes(at)) files.set(at, bytes === undefined ? { path: at, absent: true } : fileFromBytes(at, bytes));
    }
  }
  const cassette: Cassette = {
    version: 1,
    conversationId,
    root: source.platform.root,
    files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    calls,
  };
  // Turns dropped within this process to keep a budget or lost from a durable store, and turns whose calls another process made.
  const lostTurn = journal.lostThrough ?? 0;
  const droppedTurns = journal.droppedThrough ?? 0;
  const overBudget = Math.max(callsDropped ?? 0, droppedTurns > lostTurn ? droppedTurns : 0);
  const earlier = unrecordedThrough ?? 0;
  const dropped = Math.max(overBudget, droppedTurns, earlier);
  if (dropped > 0 || lost.length > 0) {
    const why = [
      lostTurn > 0 ? `turn ${lostTurn} was lost (the journal's record of it, or a file content it refers to, is missing or damaged, or could not be stored), so it and every turn before it count as dropped` : '',
      overBudget > 0 ? `turns up to ${overBudget} were dropped to keep the journal or its call records within budget (raise the runner's journal maxBytes)` : '',
      earlier > Math.max(overBudget, droppedTurns)
        ? `the calls of turns up to ${earlier} were made by an earlier process (the journal on disk keeps their file changes; calls are kept in memory only, by the process that made them, so export the cassette before that process ends)`
        : '',
      lost.length > 0 ? `what ${lost.length === 1 ? 'this file' : 'these files'} held first was not kept (a file over a quarter of the journal budget, or not a regular file)` : '',
    ].filter(Boolean);
    cassette.incomplete = { note: `this cassette does not hold the whole conversation: ${why.join('; ')}` };
    if (dropped > 0) cassette.incomplete.droppedThrough = dropped;
    if (lost.length > 0) cassette.incomplete.paths = lost.sort();
  }
  return cassette;
}

/** A file as the cassette keeps it from a journal image, or undefined when its content is not held. */
async function fileOf(source: CassetteSource, path: string, image: string): Promise<CassetteFile | undefined> {
  if (image === 'absent') return { path, absent: true };
  if (!isContent(image)) return undefined;
  const bytes = await source.blob(image);
  return bytes === undefined ? undefined : fileFromBytes(path, bytes);
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `text` when the bytes are UTF-8 (decoding keeps a BOM, so encoding gives the same bytes), else `base64`. */
function fileFromBytes(path: string, bytes: Uint8Array): CassetteFile {
  try {
    return { path, text: utf8.decode(bytes) };
  } catch {
    return { path, base64: encodeBase64(bytes) };
  }
}

/** The files at `path` (a file, or every file beneath a folder) with their bytes; undefined bytes: nothing there. */
async function readIncluded(platform: CassetteSource['platform'], path: string): Promise<Array<[string, Uint8Array | undefined]>> {
  const root = joinPath(platform.root);
  const start = joinPath(path);
  if (!isInside(root, start)) {
    throw new TypeError(`ToolRunner.cassette: include path ${JSON.stringify(path)} is outside the platform root (${platform.root}); name files inside it`);
  }
  const out: Array<[string, Uint8Array | undefined]> = [];
  const visit = async (at: string): Promise<void> => {
    let stats;
    try {
      stats = await platform.fs.stat(at);
    } catch {
      out.push([at, undefined]);
      return;
    }
    if (stats.isDirectory()) {
      for (const name of (await platform.fs.readdir(at)).sort()) await visit(joinPath(at, name));
      return;
    }
    if (out.length >= MAX_INCLUDED_FILES) {
      throw new TypeError(`ToolRunner.cassette: include ${JSON.stringify(path)} holds more than ${MAX_INCLUDED_FILES} files; name the files or smaller folders the conversation read`);
    }
    out.push([at, await platform.fs.readFile(at)]);
  };
  await visit(start);
  return out;
}
