import { type Tool, type ToolContext } from '../core/tool.js';
/** Most bytes of a response body read (2 MiB); the rest is left out and `truncated` set. */
export declare const WEB_FETCH_MAX_BYTES: number;
/** Deadline of one fetch including its redirects, in ms. */
export declare const WEB_FETCH_TIMEOUT_MS = 20000;
/** Most redirects followed. */
export declare const WEB_FETCH_MAX_REDIRECTS = 5;
/** Most characters of `content` returned (default of `max_chars`). */
export declare const WEB_FETCH_MAX_CHARS = 100000;
/** Limits of one fetch; all optional (the defaults above). */
export interface WebFetchLimits {
    maxBytes?: number;
    timeoutMs?: number;
    maxRedirects?: number;
    maxChars?: number;
}
/** Result of `web_fetch`. */
export interface WebFetchResult {
    /** The URL asked for. */
    url: string;
    /** The URL the content came from, after redirects. */
    final_url: string;
    status: number;
    content_type: string;
    /** The page as Markdown (HTML), or the text as it came (other text types); empty for binary content. */
    content: string;
    /** True when the body passed the byte cap or the content the character cap. */
    truncated: boolean;
    /** Redirects followed. */
    redirects: number;
    note?: string;
}
/**
 * Fetches `rawUrl` with GET through the platform's network (see `PlatformNetwork`), checking every
 * URL (and redirect target) against the platform's policy first, and on Node the address its host
 * resolves to. Redirects are followed up to `maxRedirects` (by the tool, hop by hop, where the platform
 * lets it; by the browser's fetch otherwise). The body is read up to `maxBytes`; HTML is converted to
 * Markdown, other text is returned as is, binary content is described and left out.
 *
 * Errors: `invalid_arguments` (not an http(s) URL), `permission_denied` (the policy's rule, named),
 * `execution_failed` (more redirects than allowed, a network error), `timeout` (past `timeoutMs`),
 * `cancelled`.
 */
export declare function fetchAsMarkdown(ctx: ToolContext, rawUrl: string, limits?: WebFetchLimits): Promise<WebFetchResult>;
/**
 * `web_fetch` of toolhost's own set: `{ url, max_chars? }` → {@link WebFetchResult}, the page as
 * Markdown (see {@link fetchAsMarkdown} for the policy, caps and redirects). Read-only; reaches the
 * open web. Where the platform has no network, an empty result with a note.
 */
export declare const webFetchTool: Tool<{
    url: string;
    max_chars?: number;
}, WebFetchResult>;
