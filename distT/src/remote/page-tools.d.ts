import { type ToolEntry } from '../core/entry.js';
import type { ToolMessage } from '../core/runner.js';
import { type AnyTool, type ToolContext } from '../core/tool.js';
import { type PageCallInfo, type PageToolDescriptor, type WorkerNotice } from './protocol.js';
import type { Session } from './session.js';
/** A page-side tool: its entry (validation and run, as in a runner) and what the worker is told. */
export interface PageTool {
    entry: ToolEntry;
    descriptor: PageToolDescriptor;
    /** Its library validates on the page too (a Standard Schema: transforms and refinements). */
    parseOnPage: boolean;
}
/** Builds a {@link PageTool}; throws a TypeError naming the tool, as ToolRunner.register rejects. */
export declare function pageTool(tool: AnyTool): PageTool;
/**
 * Runs a page-side tool for the worker's `page_call` notice and posts its `page_result`. The worker
 * validated the arguments against the tool's JSON Schema; a Standard Schema tool's library validates
 * again here, so its refinements and transforms apply before `execute`.
 */
export declare function runPageTool(session: Session, notice: Extract<WorkerNotice, {
    toolhost: 'page_call';
}>, pageTools: ReadonlyMap<string, PageTool>, deliver: (message: ToolMessage) => void): void;
/** The context a page-side `needsContext` tool receives: the call's plain fields, plus `send`. */
export declare function pageContext(info: PageCallInfo, signal: AbortSignal, tool: string, deliver: (message: ToolMessage) => void): ToolContext;
