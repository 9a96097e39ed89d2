/**
 * The set-up the framework bridges (`toolhost/ai-sdk`, `toolhost/openai-agents`) share: their common
 * options and checks, the host's tools they expose, and the batcher that turns a framework's
 * concurrent `execute` calls back into one `processToolCalls` per model turn.
 */
import type { ToolHost, ToolInfo } from '../src/core/host.js';
import { matchesToolPattern } from '../src/core/permissions.js';
import type { CallOptions } from '../src/core/runner.js';
import { checkOptions, checkToolHost, is, toolPatternsRule, type OptionRules } from '../src/core/options.js';
import { TurnBatcher } from './batch.js';

/** The options every framework bridge takes; all optional. */
export interface BridgeOptions {
  /** The conversation (tool state, file cache) of every call (default: the host's). */
  conversationId?: string;
  /** Deadline of each call in ms, as the host's `timeoutMs` (default: the host's). */
  timeoutMs?: number;
  /** Only these tools (names or `prefix*` patterns; default all). */
  include?: readonly string[];
}

/** The checks of {@link BridgeOptions}; a bridge adds its own rules to them. */
export const BRIDGE_OPTION_RULES: OptionRules = { conversationId: is.nonEmptyString, timeoutMs: is.deadlineMs, include: toolPatternsRule };

/** What a bridge builds its framework's tools from. */
export interface BridgeSetup {
  /** The host's tools, those matching `include` only. */
  infos: ToolInfo[];
  /** Queues each call; the calls of one turn run as one batch with the options' conversation and deadline. */
  batcher: TurnBatcher;
}

/**
 * Checks `host` and `options` (a TypeError naming `caller` for the host's mistakes), lists the host's
 * tools that `include` lets through, and makes the batcher of the bridge's calls.
 */
export async function openBridge(caller: string, host: ToolHost, options: BridgeOptions, rules: OptionRules = BRIDGE_OPTION_RULES): Promise<BridgeSetup> {
  checkToolHost(caller, host);
  checkOptions(caller, options, rules);
  const callOptions = (): CallOptions => {
    const out: CallOptions = {};
    if (options.conversationId !== undefined) out.conversationId = options.conversationId;
    if (options.timeoutMs !== undefined) out.timeoutMs = options.timeoutMs;
    return out;
  };
  const include = options.include;
  const infos = (await host.tools()).filter((info) => include === undefined || include.some((pattern) => matchesToolPattern(pattern, info.name)));
  return { infos, batcher: new TurnBatcher(host, callOptions) };
}

/** The batcher behind each tool collection a bridge returned (a ToolSet, a list of function tools). */
const batchers = new WeakMap<object, TurnBatcher>();

/** Records the batcher behind `tools`, for {@link bridgeBatchSizes}. */
export function rememberBatcher(tools: object, batcher: TurnBatcher): void {
  batchers.set(tools, batcher);
}

/**
 * Sizes of the `processToolCalls` batches that the tools a bridge returned ran (newest last), or
 * undefined for tools no bridge made. For tests and diagnostics; not part of any entry.
 */
export function bridgeBatchSizes(tools: object): readonly number[] | undefined {
  return batchers.get(tools)?.batchSizes.slice();
}
