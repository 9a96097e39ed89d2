import { parse, type HTMLElement } from 'node-html-parser';
import type { WebSearchHit, WebSearchResult } from '../src/core/types.js';

/** DuckDuckGo's JavaScript-free results page, the default {@link DuckDuckGoSearchOptions.baseUrl}. */
export const DUCKDUCKGO_HTML_URL = 'https://html.duckduckgo.com/html/';

/** Default deadline of one search, in ms (SPEC §6.8: 10 s). */
export const WEB_SEARCH_TIMEOUT_MS = 10_000;

/** Most results one search returns (SPEC §6.8). */
export const WEB_SEARCH_MAX_RESULTS = 10;

/** Most characters of a results page that are parsed; a real page is ~30 KB, the rest is ignored. */
const MAX_PAGE_CHARS = 2_000_000;

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

const DEFAULT_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/**
 * The Node search fallback behind `web_search` / `google_search` (SPEC §6.8, issue 5; replaces the seed's
 * `python3` scraper subprocess). Returns a function that sends `GET <baseUrl>?q=<query>` (query trimmed, form-encoded:
 * spaces as `+`, UTF-8 percent-escapes — the HTML endpoint accepts GET as well as its own form's POST;
 * GET keeps the query visible in logs and needs no body) and parses the results page with
 * `node-html-parser`:
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
export function createDuckDuckGoSearch(options: DuckDuckGoSearchOptions = {}): WebSearchFunction {
  const baseUrl = options.baseUrl ?? DUCKDUCKGO_HTML_URL;
  const timeoutMs = options.timeoutMs ?? WEB_SEARCH_TIMEOUT_MS;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  return async (query: string, signal?: AbortSignal): Promise<WebSearchResult> => {
    signal?.throwIfAborted();
    if (typeof query !== 'string' || query.trim() === '') return { results: [], note: 'Empty query' };

    const url = new URL(baseUrl);
    url.searchParams.set('q', query.trim());
    const deadline = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    const fetchImpl = options.fetch ?? globalThis.fetch;

    let page: string;
    try {
      const response = await fetchImpl(url, {
        method: 'GET',
        headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.8', 'user-agent': userAgent },
        redirect: 'follow',
        signal: combined,
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return { results: [], error: `Search failed: HTTP ${response.status}` };
      }
      page = await response.text();
    } catch (error) {
      // The caller's abort wins over everything: the runner turns the rejection into `cancelled`.
      if (signal?.aborted) throw signal.reason;
      if (deadline.aborted) return { results: [], error: `Search timed out after ${timeoutMs} ms` };
      return { results: [], error: `Search failed: ${describeNetworkError(error)}` };
    }
    signal?.throwIfAborted();

    const results = parseDuckDuckGoResults(page);
    if (results.length === 0 && looksLikeChallenge(page)) {
      return { results: [], error: 'Search blocked: DuckDuckGo answered with a bot challenge instead of results; try again later' };
    }
    return { results };
  };
}

/**
 * Parses a DuckDuckGo HTML results page into at most `max` hits (default {@link WEB_SEARCH_MAX_RESULTS}),
 * by the rules of {@link createDuckDuckGoSearch}. Pure; never throws on malformed HTML (it yields fewer hits).
 */
export function parseDuckDuckGoResults(html: string, max: number = WEB_SEARCH_MAX_RESULTS): WebSearchHit[] {
  // parseNoneClosedTags: a page cut short (or sloppy markup) keeps its unclosed links instead of
  // having them flattened to text by the parser's default recovery.
  const root = parse(html.length > MAX_PAGE_CHARS ? html.slice(0, MAX_PAGE_CHARS) : html, { parseNoneClosedTags: true });
  const hits: WebSearchHit[] = [];
  for (const result of root.querySelectorAll('div.result')) {
    if (hits.length >= max) break;
    if (result.classList.contains('result--ad')) continue;
    const link = result.querySelector('a.result__a');
    const shown = result.querySelector('a.result__url');
    const href = link?.getAttribute('href') ?? shown?.getAttribute('href');
    if (href === undefined || isAdLink(href)) continue;
    const url = unwrapDuckDuckGoUrl(href);
    if (url === undefined) continue;
    const title = cleanText(link) || url;
    hits.push({ title, url, snippet: cleanText(result.querySelector('.result__snippet')) });
  }
  return hits;
}

/**
 * The target of a result link: `//duckduckgo.com/l/?uddg=<encoded>&rut=…` (any scheme or host under
 * duckduckgo.com) becomes the decoded `uddg` URL; a protocol-relative href gets `https:`. Returns
 * undefined for anything that is not an absolute `http:`/`https:` URL after unwrapping.
 */
export function unwrapDuckDuckGoUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), 'https://duckduckgo.com/');
  } catch {
    return undefined;
  }
  if (isDuckDuckGoHost(url.hostname) && url.pathname === '/l/') {
    const target = url.searchParams.get('uddg');
    if (target === null) return undefined;
    return unwrapDuckDuckGoUrl(target.startsWith('//') ? `https:${target}` : target);
  }
  // Relative hrefs resolved against the base above would point at DuckDuckGo itself: not a result.
  if (!/^(?:https?:)?\/\//i.test(href.trim())) return undefined;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return url.href;
}

function isDuckDuckGoHost(hostname: string): boolean {
  return hostname === 'duckduckgo.com' || hostname.endsWith('.duckduckgo.com');
}

/** DuckDuckGo's ad clicks go through `duckduckgo.com/y.js?ad_domain=…`, also outside `result--ad` blocks. */
function isAdLink(href: string): boolean {
  try {
    const url = new URL(href.trim(), 'https://duckduckgo.com/');
    return isDuckDuckGoHost(url.hostname) && url.pathname === '/y.js';
  } catch {
    return false;
  }
}

/** Text of an element with entities decoded and every whitespace run (incl. NBSP) collapsed to one space. */
function cleanText(element: HTMLElement | null | undefined): string {
  if (!element) return '';
  return element.text.replace(/\s+/g, ' ').trim();
}

/** DuckDuckGo's rate-limit page ("anomaly" modal / challenge form) rather than a results page. */
function looksLikeChallenge(html: string): boolean {
  return /anomaly-modal|class="[^"]*\banomaly\b|\/anomaly\.js/i.test(html);
}

/** The most specific message of a fetch failure: undici wraps the socket error (`ECONNREFUSED`, …) in `cause`. */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof Error ? cause : undefined;
  if (inner) {
    const code = (inner as { code?: unknown }).code;
    const message = inner.message || String(code ?? 'network error');
    return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
