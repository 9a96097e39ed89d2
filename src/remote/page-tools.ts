/**
 * Tools that run on the page while the worker's runner validates their calls and applies
 * permissions: their descriptors (what the worker is told), the page-side run of a forwarded call and
 * the context such a tool gets.
 */
import { ToolError, toToolError } from '../core/errors.js';
import { createToolEntry, type ToolEntry } from '../core/entry.js';
import { BUILTIN_VALIDATORS } from '../runner.js';
import type { ToolMessage } from '../core/runner.js';
import { isStandardSchema } from '../core/standard-schema.js';
import { isExecuteTool, type AnyTool, type ToolContext } from '../core/tool.js';
import type { JsonValue } from '../core/types.js';
import { fail, failure, type HostNotice, type PageCallInfo, type PageToolDescriptor, type RemoteEnvelope, type WorkerNotice } from './protocol.js';
import type { Session } from './session.js';

/** A page-side tool: its entry (validation and run, as in a runner) and what the worker is told. */
export interface PageTool {
  entry: ToolEntry;
  descriptor: PageToolDescriptor;
  /** Its library validates on the page too (a Standard Schema: transforms and refinements). */
  parseOnPage: boolean;
}

/** Builds a {@link PageTool}; throws a TypeError naming the tool, as ToolRunner.register rejects. */
export function pageTool(tool: AnyTool): PageTool {
  const entry = createToolEntry(tool, BUILTIN_VALIDATORS);
  const descriptor: PageToolDescriptor = {
    name: entry.name,
    description: entry.description,
    parameters: entry.parameters,
    readOnly: entry.readOnly,
    concurrencySafe: entry.concurrencySafe,
    annotations: entry.annotations,
  };
  if (entry.outputSchema) descriptor.outputSchema = entry.outputSchema;
  return { entry, descriptor, parseOnPage: isExecuteTool(tool) && isStandardSchema(tool.inputSchema) };
}

/**
 * Runs a page-side tool for the worker's `page_call` notice and posts its `page_result`. The worker
 * validated the arguments against the tool's JSON Schema; a Standard Schema tool's library validates
 * again here, so its refinements and transforms apply before `execute`.
 */
export function runPageTool(
  session: Session,
  notice: Extract<WorkerNotice, { toolhost: 'page_call' }>,
  pageTools: ReadonlyMap<string, PageTool>,
  deliver: (message: ToolMessage) => void,
): void {
  const reply = (envelope: RemoteEnvelope<unknown>): void => {
    session.pageRuns.delete(notice.pageCallId);
    if (session.dead) return;
    const message: HostNotice = { toolhost: 'page_result', pageCallId: notice.pageCallId, envelope };
    try {
      session.endpoint.postMessage(message);
    } catch (error) {
      session.endpoint.postMessage({
        toolhost: 'page_result',
        pageCallId: notice.pageCallId,
        envelope: fail('execution_failed', `${notice.name} returned a value that cannot cross to the worker: ${toToolError(error).message}`),
      } satisfies HostNotice);
    }
  };
  const entry = pageTools.get(notice.name);
  if (!entry) {
    reply(fail('unknown_tool', `page-side tool "${notice.name}" is no longer registered on the page`));
    return;
  }
  const controller = new AbortController();
  session.pageRuns.set(notice.pageCallId, controller);
  const { entry: tool, parseOnPage } = entry;
  Promise.resolve()
    .then(() => (parseOnPage ? tool.parse(notice.args, notice.name) : notice.args))
    .then((input) => tool.run(input, tool.usesContext ? pageContext(notice.info, controller.signal, notice.name, deliver) : undefined))
    .then(
      (value): RemoteEnvelope<unknown> => ({ ok: true, value: value === undefined ? null : value }),
      (error: unknown) => failure(error),
    )
    .then(reply);
}

/** The context a page-side tool that reads one receives: the call's plain fields, plus `send`. */
export function pageContext(
  info: PageCallInfo,
  signal: AbortSignal,
  tool: string,
  deliver: (message: ToolMessage) => void,
): ToolContext {
  const inWorker = (member: string): never => {
    throw new ToolError(
      'unavailable',
      `ctx.${member} lives in the tool worker; page-side tool ${tool} cannot use it (register the tool in the worker instead)`,
    );
  };
  return {
    conversationId: info.conversationId,
    callId: info.callId,
    signal,
    deadline: info.deadline,
    cwd: info.cwd,
    planMode: info.planMode,
    verbose: info.verbose,
    isIdle: () => info.idle,
    async send(message: JsonValue) {
      deliver({ conversationId: info.conversationId, callId: info.callId, tool, message });
    },
    get fs() {
      return inWorker('fs');
    },
    get platform() {
      return inWorker('platform');
    },
    get permissions() {
      return inWorker('permissions');
    },
    get fileCache() {
      return inWorker('fileCache');
    },
    get denialTracker() {
      return inWorker('denialTracker');
    },
    get hooks() {
      return inWorker('hooks');
    },
    getState: () => inWorker('getState'),
    setState: () => inWorker('setState'),
    withPathLock: () => inWorker('withPathLock'),
  };
}
