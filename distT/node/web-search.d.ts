import type { WebSearchHit, WebSearchResult } from '../src/core/types.js';
/** DuckDuckGo's JavaScript-free results page, the default {@link DuckDuckGoSearchOptions.baseUrl}. */
export declare const DUCKDUCKGO_HTML_URL = "https://html.duckduckgo.com/html/";
/** Default deadline of one search, in ms (10 s). */
export declare const WEB_SEARCH_TIMEOUT_MS = 10000;
/** Most results one search returns. */
export declare const WEB_SEARCH_MAX_RESULTS = 10;
/** Most bytes of a results page that are read; a real page is about 30 KB, the rest is never fetched. */
export declare const WEB_SEARCH_MAX_PAGE_BYTES = 1048576;
/** Longest title and snippet kept, in characters (cut with `…`); a real one is under 200. */
export declare const WEB_SEARCH_MAX_TEXT_CHARS = 500;
/** Longest result URL kept, in characters; a result with a longer one is skipped. */
export declare const WEB_SEARCH_MAX_URL_CHARS = 4096;
/** Options of {@link createDuckDuckGoSearch}; all optional. */
export interface DuckDuckGoSearchOptions {
    /**
     * Results-page URL; the query is added as its `q` parameter (other parameters already in it are
     * kept). Default {@link DUCKDUCKGO_HTML_URL}. Tests point it at a local server.
     */
    baseUrl?: string;
    /** Deadline of the whole request (headers and body) in ms; default {@link WEB_SEARCH_TIMEOUT_MS}. */
    timeoutMs?: number;
    /** The fetch implementation (default `globalThis.fetch`, read when a search runs); for hosts and tests. */
    fetch?: typeof globalThis.fetch;
    /** `User-Agent` request header (default: a browser-like agent, as the page rejects some bare clients). */
    userAgent?: string;
}
/** A search function with the shape of `Platform.webSearch` (query, optional caller signal). */
export type WebSearchFunction = (query: string, signal?: AbortSignal) => Promise<WebSearchResult>;
/**
 * The Node search fallback behind `web_search` / `google_search` (in-process, where the original ran a
 * `python3` scraper subprocess). Returns a function that sends `GET <baseUrl>?q=<query>` (query trimmed, form-encoded:
 * spaces as `+`, UTF-8 percent-escapes — the HTML endpoint accepts GET as well as its own form's POST;
 * GET keeps the query visible in logs and needs no body) and parses the results page with
 * htmlparser2 in one streaming pass:
 *
 * - every `div.result` that is not an ad (`result--ad`, or a `duckduckgo.com/y.js` ad link), in page
 *   order, at most {@link WEB_SEARCH_MAX_RESULTS};
 * - `title`: the text of `a.result__a` (nested tags flattened); `snippet`: the text of `.result__snippet`;
 *   entities decoded, whitespace runs collapsed to one space, trimmed;
 * - `url`: the `href` of `a.result__a` (else of `a.result__url`), with DuckDuckGo's redirect
 *   `//duckduckgo.com/l/?uddg=<encoded>&rut=…` unwrapped to the decoded target and protocol-relative
 *   hrefs given `https:`; a result without an `http(s)` URL is skipped.
 *
 * Always resolves with a {@link WebSearchResult} except when the caller aborts:
 * - empty or whitespace-only query → `{ results: [], note: 'Empty query' }`, nothing fetched;
 * - deadline passed → `{ results: [], error: 'Search timed out after <timeoutMs> ms' }`;
 * - HTTP status outside 2xx → `{ results: [], error: 'Search failed: HTTP <status>' }`;
 * - network failure (refused, DNS, reset) → `{ results: [], error: 'Search failed: <cause>' }`;
 * - a bot-challenge page instead of results → `{ results: [], error: 'Search blocked: …' }`;
 * - `signal` aborted (before or during the request) → rejects with the signal's reason, so the runner
 *   reports `cancelled`.
 */
export declare function createDuckDuckGoSearch(options?: DuckDuckGoSearchOptions): WebSearchFunction;
/**
 * Parses a DuckDuckGo HTML results page into at most `max` hits (default {@link WEB_SEARCH_MAX_RESULTS}),
 * by the rules of {@link createDuckDuckGoSearch}. Pure; never throws on malformed HTML (it yields fewer hits).
 *
 * A single streaming pass (htmlparser2's tokenizer, no document tree), so a hostile page costs time
 * linear in its length whatever its nesting: titles and snippets stop growing at
 * {@link WEB_SEARCH_MAX_TEXT_CHARS}, URLs over {@link WEB_SEARCH_MAX_URL_CHARS} are skipped, and
 * parsing stops once `max` hits are found. A page cut short keeps its unclosed last result.
 */
export declare function parseDuckDuckGoResults(html: string, max?: number): WebSearchHit[];
/**
 * The target of a result link: `//duckduckgo.com/l/?uddg=<encoded>&rut=…` (any scheme or host under
 * duckduckgo.com) becomes the decoded `uddg` URL; a protocol-relative href gets `https:`. Returns
 * undefined for anything that is not an absolute `http:`/`https:` URL after unwrapping, and for a
 * link wrapped more than four times (a real one is wrapped once).
 */
export declare function unwrapDuckDuckGoUrl(href: string): string | undefined;
