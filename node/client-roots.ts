import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ListRootsResult, McpServer, StandardSchemaV1, specTypeSchemas } from '@modelcontextprotocol/server';
import type { ToolHost } from '../src/core/host.js';
import type { CallOptions, ToolCall, ToolCallResult } from '../src/core/runner.js';
import type { ConversationChanges, RewindOptions, RewindResult } from '../src/core/journal-port.js';
import type { JournalHost } from '../bridges/mcp/journal.js';

/** A runner opened on a directory, and how to release it. */
export interface OpenedRunner {
  readonly host: ToolHost;
  dispose(): Promise<void>;
}

/** How long a client that declared `roots` may take to answer `roots/list` before the fallback workspace is used (ms). */
export const ROOTS_LIST_TIMEOUT_MS = 10_000;

/**
 * The first `file://` root of an MCP `roots/list` answer that is an existing directory, as a path;
 * undefined when there is none. Roots of other schemes, and missing or non-directory paths, are passed over.
 */
export function firstDirectoryRoot(roots: readonly { uri: string }[]): string | undefined {
  for (const root of roots) {
    if (!root.uri.startsWith('file:')) continue;
    try {
      const path = fileURLToPath(root.uri);
      if (statSync(path).isDirectory()) return path;
    } catch {
      // not a path of this machine, or gone: the next root
    }
  }
  return undefined;
}

/** A `roots/list` answer as {@link rootsAnswerSchema} reads it. */
export type RootsAnswer = ListRootsResult & {
  /** The URIs of the roots of schemes other than `file` that were set apart, in the answer's order. */
  readonly ignored: readonly string[];
};

/** A URI's scheme, lower-cased (`https` of `https://example.com/x`); undefined for a string with none. */
function schemeOf(uri: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(uri)?.[1]?.toLowerCase();
}

/**
 * The schema a `roots/list` answer is read with: `answer` (the SDK's `ListRootsResult` schema, which
 * takes `file://` roots only, and so refuses a whole answer for one root of another scheme), applied to
 * the answer without its roots of other schemes. A root whose `uri` is a string with a scheme other than
 * `file` (`https://…`, `git://…`) is set apart, its URI listed in `ignored`; every other root, `file`
 * roots and roots with no usable URI alike, is checked by `answer` as before, and one that fails it
 * still refuses the whole answer (its issue names its place in the answer as sent).
 */
export function rootsAnswerSchema(answer: (typeof specTypeSchemas)['ListRootsResult']): StandardSchemaV1<unknown, RootsAnswer> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolhost',
      validate(value: unknown) {
        const roots = typeof value === 'object' && value !== null ? (value as { roots?: unknown }).roots : undefined;
        if (!Array.isArray(roots)) return answer['~standard'].validate(value) as StandardSchemaV1.Result<RootsAnswer>;
        const ignored: string[] = [];
        const kept: unknown[] = [];
        const placeOf: number[] = [];
        roots.forEach((root: unknown, index) => {
          const uri = typeof root === 'object' && root !== null ? (root as { uri?: unknown }).uri : undefined;
          const scheme = typeof uri === 'string' ? schemeOf(uri) : undefined;
          if (typeof uri === 'string' && scheme !== undefined && scheme !== 'file') ignored.push(uri);
          else {
            // A scheme is case-insensitive (RFC 3986): `FILE:///x` is a file root, written as the SDK's schema takes it.
            kept.push(typeof uri === 'string' && scheme === 'file' && !uri.startsWith('file:') ? { ...(root as object), uri: `file${uri.slice(4)}` } : root);
            placeOf.push(index);
          }
        });
        const checked = answer['~standard'].validate({ ...(value as object), roots: kept });
        if (checked.issues === undefined) return { value: { ...checked.value, ignored } };
        // An issue's path counts the roots kept: it is given the place of the root in the answer as sent.
        const issues = checked.issues.map((issue) => {
          const [first, at, ...rest] = issue.path ?? [];
          return first === 'roots' && typeof at === 'number' ? { ...issue, path: [first, placeOf[at] ?? at, ...rest] } : issue;
        });
        return { issues };
      },
    },
  };
}

/**
 * The workspace of `toolhost mcp` on stdio when no `--root` was given: the MCP client's root, as the
 * reference filesystem server does. When the client has initialized and declared the `roots`
 * capability, `roots/list` is asked once; the first `file://` root that is an existing directory
 * becomes the workspace (a runner opened there by `open`). Roots of other schemes in the answer are
 * passed over with a note, the rest of the answer checked as the SDK checks it (see
 * {@link rootsAnswerSchema}). A client without roots, an answer with no
 * usable root, or no answer within {@link ROOTS_LIST_TIMEOUT_MS} keeps the fallback (the current
 * directory). The choice is made once per connection: a later `notifications/roots/list_changed` does
 * not move a workspace that calls have already used. Tool lists come from the fallback runner (the
 * tools are the same in every workspace); calls wait for the choice.
 */
export class ClientRootsHost implements ToolHost, JournalHost {
  readonly #fallback: ToolHost;
  readonly #open: (root: string) => OpenedRunner;
  readonly #note: (line: string) => void;
  readonly #here: { dir: string; open: boolean };
  #choice: Promise<ToolHost> | undefined;
  #opened: OpenedRunner | undefined;
  /** The server (connection) this host serves, once attached. */
  #server: McpServer | undefined;
  /** Called on `notifications/initialized` by a call that waits for it (see {@link #workspace}). */
  #onInitialized: (() => void) | undefined;
  #initializedTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `fallback` serves the current directory `here.dir` (and lists the tools); with `here.open`, a choice
   * that settles on the current directory opens a runner there with `open` instead, so that the fallback
   * need not keep what only a chosen workspace should (the CLI's search index: a workspace not chosen is
   * never walked). `note` takes the lines that say which workspace was chosen.
   */
  constructor(fallback: ToolHost, open: (root: string) => OpenedRunner, note: (line: string) => void, here: { dir: string; open?: boolean }) {
    this.#fallback = fallback;
    this.#open = open;
    this.#note = note;
    this.#here = { dir: here.dir, open: here.open === true };
  }

  /** Wires the choice to `server`'s initialization; returns `server`. One server (connection) per host. */
  attach(server: McpServer): McpServer {
    this.#server = server;
    const previous = server.server.oninitialized;
    server.server.oninitialized = () => {
      previous?.();
      const waiting = this.#onInitialized;
      this.#onInitialized = undefined;
      if (waiting) waiting();
      else this.#choice ??= this.#choose(server);
    };
    return server;
  }

  tools(): ReturnType<ToolHost['tools']> {
    return this.#fallback.tools();
  }

  declarations(): ReturnType<ToolHost['declarations']> {
    return this.#fallback.declarations();
  }

  async execute(name: string, args: unknown, options?: CallOptions): Promise<unknown> {
    return (await this.#workspace()).execute(name, args, options);
  }

  async processToolCalls(calls: readonly ToolCall[], options?: CallOptions): Promise<ToolCallResult[]> {
    return (await this.#workspace()).processToolCalls(calls, options);
  }

  /** The chosen workspace's journal (see `ToolRunner.changes`); a TypeError when its host has none. */
  async changes(conversationId: string): Promise<ConversationChanges> {
    return (await this.#journal('changes')).changes(conversationId);
  }

  /** Rewinds in the chosen workspace's journal (see `ToolRunner.rewind`); a TypeError when its host has none. */
  async rewind(conversationId: string, options: RewindOptions): Promise<RewindResult> {
    return (await this.#journal('rewind')).rewind(conversationId, options);
  }

  async #journal(method: string): Promise<JournalHost> {
    const host = await this.#workspace();
    const journal = host as Partial<JournalHost>;
    if (typeof journal.changes !== 'function' || typeof journal.rewind !== 'function') throw new TypeError(`${method}: this workspace's runner keeps no change journal`);
    return journal as JournalHost;
  }

  /** Releases the runner opened on the client's root, if any (the fallback is its owner's). */
  async dispose(): Promise<void> {
    clearTimeout(this.#initializedTimer);
    await this.#opened?.dispose();
  }

  /**
   * The chosen workspace. A call before any `initialize` (a client of an era without it) settles on
   * the fallback. A call after `initialize` but before `notifications/initialized` (the lifecycle lets
   * a client send requests once it has the initialize result) from a client that declared `roots`
   * waits for that notification, since `roots/list` may only be asked after it, for at most
   * {@link ROOTS_LIST_TIMEOUT_MS}; one from a client without roots settles at once.
   */
  #workspace(): Promise<ToolHost> {
    if (this.#choice) return this.#choice;
    const server = this.#server;
    const capabilities = server?.server.getClientCapabilities();
    if (server === undefined || capabilities === undefined) this.#choice = Promise.resolve(this.#stayHere());
    else if (!capabilities.roots) this.#choice = this.#choose(server);
    else this.#choice = this.#afterInitialized(server);
    return this.#choice;
  }

  /** The choice made once `notifications/initialized` arrives, or the current directory when it has not within {@link ROOTS_LIST_TIMEOUT_MS}. */
  #afterInitialized(server: McpServer): Promise<ToolHost> {
    return new Promise<ToolHost>((resolve) => {
      this.#initializedTimer = setTimeout(() => {
        this.#onInitialized = undefined;
        this.#note(`the client sent no notifications/initialized within ${ROOTS_LIST_TIMEOUT_MS / 1000} s of its first call, so its roots were not asked; the workspace stays the current directory`);
        resolve(this.#stayHere());
      }, ROOTS_LIST_TIMEOUT_MS);
      this.#onInitialized = () => {
        clearTimeout(this.#initializedTimer);
        resolve(this.#choose(server));
      };
    });
  }

  /** The current directory's host, once the choice settles there (opened then, with `here.open`). */
  #stayHere(): ToolHost {
    if (!this.#here.open) return this.#fallback;
    this.#opened = this.#open(this.#here.dir);
    return this.#opened.host;
  }

  async #choose(server: McpServer): Promise<ToolHost> {
    if (!server.server.getClientCapabilities()?.roots) {
      this.#note(`the client offers no roots; the workspace is the current directory ${this.#here.dir}`);
      return this.#stayHere();
    }
    let root: string | undefined;
    try {
      // The SDK is loaded by now (the server is its); the CLI's other commands never load it.
      const { specTypeSchemas: schemas } = await import('@modelcontextprotocol/server');
      const { roots, ignored } = await server.server.request({ method: 'roots/list' }, rootsAnswerSchema(schemas.ListRootsResult), { timeout: ROOTS_LIST_TIMEOUT_MS });
      if (ignored.length > 0) this.#note(`passed over the client's roots that are not file:// URIs (${ignored.join(', ')}): the workspace is a directory of this machine`);
      root = firstDirectoryRoot(roots);
      if (root === undefined) this.#note(`the client's roots (${roots.map((r) => r.uri).join(', ') || 'none'}) name no directory here; the workspace stays the current directory`);
    } catch (error) {
      this.#note(`the client did not list its roots (${(error as Error).message}); the workspace stays the current directory`);
    }
    if (root === undefined) return this.#stayHere();
    try {
      this.#opened = this.#open(root);
    } catch (error) {
      this.#note(`cannot open the client's root ${root} (${(error as Error).message}); the workspace stays the current directory`);
      return this.#stayHere();
    }
    this.#note(`the workspace is the client's root ${root}`);
    return this.#opened.host;
  }
}
