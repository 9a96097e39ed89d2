// Cassettes: a conversation's tool calls as its callers received them, and the files it started from.
import type { FsPromises } from '../core/fs-port.js';
import type { Cassette, CassetteCall, CassetteFile, RecordedCall } from '../core/journal-port.js';
import { encodeBase64 } from '../fs/mime.js';
import { isInside, joinPath } from '../core/posix-path.js';
import { isContent, type ConversationJournal } from './model.js';

/** One recorded turn: its calls as JSON text (copied when recorded, so later changes to a result are not seen). */
interface TapeTurn {
  conversationId: string;
  turn: number;
  calls: string[];
  /** UTF-16 code units of the calls' JSON text. */
  size: number;
}

/** A conversation's recorded turns, oldest first, and the last turn dropped to keep within the bound. */
interface TapeConversation {
  turns: TapeTurn[];
  droppedThrough?: number;
}

/**
 * The calls of every conversation of a runner, as JSON text, within `maxChars` in all: past it the
 * oldest turns (of any conversation) are dropped, and their conversation notes the last one dropped.
 */
export class CallTape {
  readonly maxChars: number;
  readonly #conversations = new Map<string, TapeConversation>();
  readonly #order: TapeTurn[] = [];
  #chars = 0;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
  }

  /** UTF-16 code units held in all. */
  get chars(): number {
    return this.#chars;
  }

  /** Keeps `calls` as turn `turn` of `conversationId` (a copy, as JSON text); then applies the bound. Never throws. */
  record(conversationId: string, turn: number, calls: readonly RecordedCall[]): void {
    if (calls.length === 0) return;
    const texts = calls.map((call) => callText(turn, call));
    const taped: TapeTurn = { conversationId, turn, calls: texts, size: texts.reduce((sum, text) => sum + text.length, 0) };
    this.#conversation(conversationId).turns.push(taped);
    this.#order.push(taped);
    this.#chars += taped.size;
    while (this.#chars > this.maxChars && this.#order.length > 0) {
      const oldest = this.#order.shift() as TapeTurn;
      const conversation = this.#conversation(oldest.conversationId);
      conversation.turns = conversation.turns.filter((held) => held !== oldest);
      conversation.droppedThrough = Math.max(conversation.droppedThrough ?? 0, oldest.turn);
      this.#chars -= oldest.size;
    }
  }

  /** The calls of `conversationId` still held, in order, and the last turn dropped. */
  calls(conversationId: string): { calls: CassetteCall[]; droppedThrough?: number } {
    const conversation = this.#conversations.get(conversationId);
    if (!conversation) return { calls: [] };
    // By turn number: overlapping `execute`s of one conversation may end out of order.
    const turns = [...conversation.turns].sort((a, b) => a.turn - b.turn);
    const calls = turns.flatMap((turn) => turn.calls.map((text) => JSON.parse(text) as CassetteCall));
    return conversation.droppedThrough === undefined ? { calls } : { calls, droppedThrough: conversation.droppedThrough };
  }

  /** Notes that turns up to `turn` of `conversationId` were not recorded here (a journal taken up from a durable store). */
  unrecorded(conversationId: string, turn: number): void {
    if (turn <= 0) return;
    const conversation = this.#conversation(conversationId);
    conversation.droppedThrough = Math.max(conversation.droppedThrough ?? 0, turn);
  }

  #conversation(conversationId: string): TapeConversation {
    let found = this.#conversations.get(conversationId);
    if (!found) {
      found = { turns: [] };
      this.#conversations.set(conversationId, found);
    }
    return found;
  }
}

/** A recorded call as the JSON text of its {@link CassetteCall}; an input that is not JSON is kept as a note of why. */
function callText(turn: number, call: RecordedCall): string {
  const out: CassetteCall = { turn, via: call.via, tool: call.tool };
  if (call.id !== undefined) out.id = call.id;
  if (call.error !== undefined) out.error = { code: call.error.code, message: call.error.message };
  else out.result = (call.result ?? null) as CassetteCall['result'];
  const withInput = { ...out, ...(call.input === undefined ? {} : { input: call.input }) };
  try {
    return JSON.stringify(withInput);
  } catch (error) {
    // A host's `execute` may pass what JSON cannot hold (a bigint, a cycle): kept as a note, so a replay drifts there.
    return JSON.stringify({ ...out, input: { notJson: error instanceof Error ? error.message : String(error) } });
  }
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
  const { calls, droppedThrough: callsDropped } = source.tape.calls(conversationId);
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
  const dropped = Math.max(callsDropped ?? 0, journal.droppedThrough ?? 0);
  if (dropped > 0 || lost.length > 0) {
    const why = [
      dropped > 0 ? `turns up to ${dropped} were dropped to keep the journal or its call records within budget (raise the runner's journal maxBytes)` : '',
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
