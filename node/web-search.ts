import { Parser } from 'htmlparser2';
import { isToolError, ToolError } from '../src/core/errors.js';
import type { WebSearchHit, WebSearchResult } from '../src/core/types.js';

/** DuckDuckGo's JavaScript-free results page, the default {@link DuckDuckGoSearchOptions.baseUrl}. */
export const DUCKDUCKGO_HTML_URL = 'https://html.duckduckgo.com/html/';

/** Default deadline of one search, in ms (10 s). */
export const WEB_SEARCH_TIMEOUT_MS = 10_000;

/** Most results one search returns. */
export const WEB_SEARCH_MAX_RESULTS = 10;

/** Most bytes of a results page that are read; a real page is about 30 KB, the rest is never fetched. */
export const WEB_SEARCH_MAX_PAGE_BYTES = 1_048_576;

/** Longest title and snippet kept, in characters (cut with `…`); a real one is under 200. */
export const WEB_SEARCH_MAX_TEXT_CHARS = 500;

/** Longest result URL kept, in characters; a result with a longer one is skipped. */
export const WEB_SEARCH_MAX_URL_CHARS = 4096;

/** How many redirect wrappers (`/l/?uddg=…` inside `/l/?uddg=…`) are unwrapped before a link is given up. */
const MAX_UNWRAP_DEPTH = 4;

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
 * Resolves with `{ results }` (possibly empty: the page had none), or:
 * - empty or whitespace-only query → `{ results: [], note: 'Empty query' }`, nothing fetched;
 * - deadline passed → rejects with a ToolError `unavailable`, `Search timed out after <timeoutMs> ms; …`;
 * - HTTP status outside 2xx → `unavailable`, `Search failed: DuckDuckGo answered HTTP <status>; …`;
 * - network failure (refused, DNS, reset) → `unavailable`, `Search failed: <cause>; …`;
 * - a bot-challenge page instead of results → `unavailable`, `Search blocked: …`;
 *   each message ends saying what to do next (try again later, or go on without web results);
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
        throw searchFailure(`Search failed: DuckDuckGo answered HTTP ${response.status}`, 'try again later');
      }
      page = await readCapped(response, WEB_SEARCH_MAX_PAGE_BYTES);
    } catch (error) {
      // The caller's abort wins over everything: the runner turns the rejection into `cancelled`.
      if (signal?.aborted) throw signal.reason;
      if (isToolError(error)) throw error;
      if (deadline.aborted) throw searchFailure(`Search timed out after ${timeoutMs} ms`, 'try again later');
      throw searchFailure(`Search failed: ${describeNetworkError(error)}`, 'check that this host can reach the network');
    }
    signal?.throwIfAborted();

    const results = parseDuckDuckGoResults(page);
    if (results.length === 0 && looksLikeChallenge(page)) {
      throw searchFailure('Search blocked: DuckDuckGo answered with a bot challenge instead of results', 'try again later');
    }
    return { results };
  };
}

/** A search that did not happen: `unavailable`, saying what the model can do next. */
function searchFailure(what: string, next: string): ToolError {
  return new ToolError('unavailable', `${what}; ${next}, or go on without web results`);
}

/**
 * Parses a DuckDuckGo HTML results page into at most `max` hits (default {@link WEB_SEARCH_MAX_RESULTS}),
 * by the rules of {@link createDuckDuckGoSearch}. Pure; never throws on malformed HTML (it yields fewer hits).
 *
 * A single streaming pass (htmlparser2's tokenizer, no document tree), so a hostile page costs time
 * linear in its length whatever its nesting: titles and snippets stop growing at
 * {@link WEB_SEARCH_MAX_TEXT_CHARS}, URLs over {@link WEB_SEARCH_MAX_URL_CHARS} are skipped, and
 * parsing stops once `max` hits are found. A page cut short keeps its unclosed last result.
 */
export function parseDuckDuckGoResults(html: string, max: number = WEB_SEARCH_MAX_RESULTS): WebSearchHit[] {
  const hits: WebSearchHit[] = [];
  let depth = 0;
  let current: OpenResult | undefined;
  const finish = (): void => {
    const result = current;
    current = undefined;
    if (!result || result.ad || hits.length >= max) return;
    const href = result.titleHref ?? result.shownHref;
    if (href === undefined || href.length > WEB_SEARCH_MAX_URL_CHARS || isAdLink(href)) return;
    const url = unwrapDuckDuckGoUrl(href);
    if (url === undefined || url.length > WEB_SEARCH_MAX_URL_CHARS) return;
    hits.push({ title: clip(result.title.text) || url, url, snippet: clip(result.snippet.text) });
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        depth += 1;
        const classes = ` ${attributes.class ?? ''} `.replace(/\s+/g, ' ');
        const has = (cls: string): boolean => classes.includes(` ${cls} `);
        if (!current) {
          if (name === 'div' && has('result')) current = newResult(depth, has('result--ad'));
          return;
        }
        if (name === 'a' && has('result__a') && current.titleHref === undefined) {
          current.titleHref = attributes.href;
          current.title.depth = depth;
        } else if (name === 'a' && has('result__url') && current.shownHref === undefined) {
          current.shownHref = attributes.href;
        }
        if (has('result__snippet') && current.snippet.depth === 0 && !current.snippet.done) current.snippet.depth = depth;
      },
      ontext(text) {
        if (!current) return;
        for (const field of [current.title, current.snippet]) {
          if (field.depth > 0 && field.text.length <= WEB_SEARCH_MAX_TEXT_CHARS) field.text += text;
        }
      },
      onclosetag() {
        if (current) {
          for (const field of [current.title, current.snippet]) {
            if (field.depth === depth) {
              field.depth = 0;
              field.done = true;
            }
          }
          if (current.depth === depth) {
            finish();
            if (hits.length >= max) parser.pause();
          }
        }
        depth -= 1;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  if (current && hits.length < max) finish();
  return hits;
}

interface TextField {
  /** Element depth the field's element opened at; 0 when not inside it. */
  depth: number;
  done: boolean;
  text: string;
}

interface OpenResult {
  depth: number;
  ad: boolean;
  titleHref: string | undefined;
  shownHref: string | undefined;
  title: TextField;
  snippet: TextField;
}

function newResult(depth: number, ad: boolean): OpenResult {
  return { depth, ad, titleHref: undefined, shownHref: undefined, title: { depth: 0, done: false, text: '' }, snippet: { depth: 0, done: false, text: '' } };
}

/** Whitespace runs (incl. NBSP) collapsed to one space, trimmed, and cut at {@link WEB_SEARCH_MAX_TEXT_CHARS} with `…`. */
function clip(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= WEB_SEARCH_MAX_TEXT_CHARS) return clean;
  let cut = WEB_SEARCH_MAX_TEXT_CHARS - 1;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(clean[cut - 1] ?? '')) cut -= 1;
  return `${clean.slice(0, cut)}…`;
}

/** The response body as text, reading at most `maxBytes` (the rest is cancelled, never downloaded). */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
      size += Math.min(value.byteLength, room);
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  // A cut in the middle of a character decodes to U+FFFD there, which the parser takes as text.
  return new TextDecoder().decode(bytes);
}

/**
 * The target of a result link: `//duckduckgo.com/l/?uddg=<encoded>&rut=…` (any scheme or host under
 * duckduckgo.com) becomes the decoded `uddg` URL; a protocol-relative href gets `https:`. Returns
 * undefined for anything that is not an absolute `http:`/`https:` URL after unwrapping, and for a
 * link wrapped more than four times (a real one is wrapped once).
 */
export function unwrapDuckDuckGoUrl(href: string): string | undefined {
  return unwrap(href, 0);
}

function unwrap(href: string, depth: number): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim(), 'https://duckduckgo.com/');
  } catch {
    return undefined;
  }
  if (isDuckDuckGoHost(url.hostname) && url.pathname === '/l/') {
    const target = url.searchParams.get('uddg');
    if (target === null || depth >= MAX_UNWRAP_DEPTH) return undefined;
    return unwrap(target.startsWith('//') ? `https:${target}` : target, depth + 1);
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
