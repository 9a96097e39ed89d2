import { isToolError, ToolError, toToolError } from '../core/errors.js';
import { loadHtmlCheck, loadHtmlConverter, offThread } from '#lazy';
import { onDemand } from '../core/on-demand.js';
import { checkUrlPolicy } from '../core/network.js';
import { defineTool, type ExecuteTool, type ToolContext } from '../core/tool.js';
import { quoteForMessage, truncateText } from '../fs/text.js';
import { decodeBody, looksLikeHtml } from './web-fetch/charset.js';

/** Most bytes of a response body read (2 MiB); the rest is left out and `truncated` set. */
export const WEB_FETCH_MAX_BYTES = 2 * 1024 * 1024;
/** Deadline of one fetch including its redirects, in ms. */
export const WEB_FETCH_TIMEOUT_MS = 20_000;
/** Most redirects followed. */
export const WEB_FETCH_MAX_REDIRECTS = 5;
/** Most characters of `content` returned (default of `max_chars`). */
export const WEB_FETCH_MAX_CHARS = 100_000;

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
  /**
   * The character encoding the text was decoded with (its WHATWG name, e.g. `windows-1252`,
   * `shift_jis`, `utf-16le`), found as browsers find it; present only when it was not UTF-8.
   */
  encoding?: string;
  note?: string;
}

async function readCapped(response: Response, maxBytes: number, signal: AbortSignal): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    while (true) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, truncated };
}

/** web_fetch's HTML converter module (in browsers a file of its own, fetched on the first HTML page). */
const htmlConverter = onDemand("web_fetch's HTML converter", 'html-markdown.min.js', loadHtmlConverter<typeof import('./web-fetch/html.js')>);

/** web_fetch's HTML structure check alone (the parser, without the converters). */
const htmlCheck = onDemand("web_fetch's HTML structure check", 'html-check.min.js', loadHtmlCheck<typeof import('./web-fetch/html-check.js')>);

/**
 * `html` as Markdown (src/tools/web-fetch/html.ts), ending by `deadline`: on Node in a worker thread,
 * terminated when `signal` aborts, so the calling thread's event loop stays free however large or
 * hostile the page, after its structure (depth and node count) is checked here in slices with turns
 * of the event loop between them, so a page too deep or too large is refused at once rather than
 * after waiting for a thread; elsewhere (browsers, where the tools already run in a worker) on this
 * thread, bounded by the converter's depth and node caps and its deadline checks.
 */
async function htmlToMarkdown(html: string, deadline: number, signal: AbortSignal): Promise<string> {
  try {
    const threads = offThread();
    if (threads) {
      await (await htmlCheck.load()).checkStructureInSlices(html, { signal });
      return await threads.run('html', { html, options: { deadline, checked: true } }, { signal, what: 'converting the page to Markdown' });
    }
    const options = { deadline };
    return (await htmlConverter.load()).htmlToMarkdown(html, options);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // A ToolError of the converter's own copy, or rebuilt after the thread hop: recognised by its code.
    throw isToolError(error) ? toToolError(error) : error;
  }
}

/**
 * Fetches `rawUrl` with GET through the platform's network (see `PlatformNetwork`), checking every
 * URL (and redirect target) against the platform's policy first, and on Node the address its host
 * resolves to. Redirects are followed up to `maxRedirects` (by the tool, hop by hop, where the platform
 * lets it; by the browser's fetch otherwise). The body is read up to `maxBytes` and decoded as browsers
 * decode it (a byte order mark, the Content-Type charset, an HTML page's `<meta>` charset, else UTF-8;
 * `encoding` names it when not UTF-8); HTML is converted to Markdown, other text is returned as is,
 * binary content is described and left out.
 *
 * HTML is converted on a worker thread on Node (the calling thread's event loop stays free), by the
 * deadline (`timeoutMs` or the call's, whichever comes first).
 *
 * Errors: `invalid_arguments` (not an http(s) URL), `permission_denied` (the policy's rule, named),
 * `execution_failed` (more redirects than allowed, a network error), `too_large` (a page nested more
 * than 1,000 deep or with more than 500,000 nodes, or one whose conversion needs more than the
 * thread's 512 MiB), `unavailable` (the converter or its thread could not be loaded or started),
 * `timeout` (past `timeoutMs` or the call's deadline), `cancelled`.
 */
export async function fetchAsMarkdown(ctx: ToolContext, rawUrl: string, limits: WebFetchLimits = {}): Promise<WebFetchResult> {
  const network = ctx.platform.network;
  if (!network) {
    return {
      url: rawUrl, final_url: rawUrl, status: 0, content_type: '', content: '', truncated: false, redirects: 0,
      note: `web_fetch is not available on the ${ctx.platform.name} platform (it has no network)`,
    };
  }
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ToolError('invalid_arguments', `url ${quoteForMessage(rawUrl)} is not a valid URL; give an absolute http or https URL`);
  }
  const timeoutMs = limits.timeoutMs ?? WEB_FETCH_TIMEOUT_MS;
  const maxRedirects = limits.maxRedirects ?? WEB_FETCH_MAX_REDIRECTS;
  const timer = AbortSignal.timeout(timeoutMs);
  const deadline = Math.min(Date.now() + timeoutMs, ctx.deadline ?? Infinity);
  const signal = AbortSignal.any([ctx.signal, timer]);
  let redirects = 0;
  try {
    let response: Response;
    while (true) {
      checkUrlPolicy(url, 'GET', network.policy);
      await network.checkAddress?.(url, signal);
      response = await network.fetch(url.href, {
        method: 'GET',
        headers: { accept: 'text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5' },
        redirect: network.redirects,
        signal,
      });
      const location = response.headers.get('location');
      if (network.redirects === 'manual' && response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        if (redirects >= maxRedirects) {
          throw new ToolError('execution_failed', `${quoteForMessage(rawUrl)} redirected more than ${maxRedirects} times (last to ${quoteForMessage(location)}); fetch the final URL directly`);
        }
        redirects += 1;
        url = new URL(location, url);
        continue;
      }
      break;
    }
    if (network.redirects === 'follow' && response.url) {
      const finalUrl = new URL(response.url);
      checkUrlPolicy(finalUrl, 'GET', network.policy);
      url = finalUrl;
      if (response.redirected) redirects = 1;
    }
    const contentType = response.headers.get('content-type') ?? '';
    const body = await readCapped(response, limits.maxBytes ?? WEB_FETCH_MAX_BYTES, signal);
    const result: WebFetchResult = {
      url: rawUrl, final_url: url.href, status: response.status, content_type: contentType, content: '', truncated: body.truncated, redirects,
    };
    const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const isText = type === '' || type.startsWith('text/') || type.endsWith('+xml') || type.endsWith('/json') || type.endsWith('+json') || type === 'application/xml' || type === 'application/javascript';
    if (!isText) {
      result.note = `the response is ${type} (${body.bytes.length} bytes read), not text; its content is not shown`;
      return result;
    }
    const htmlType = type === 'text/html' || type === 'application/xhtml+xml';
    const { text, encoding } = decodeBody(body.bytes, contentType, htmlType || (type === '' && looksLikeHtml(body.bytes)));
    if (encoding !== 'utf-8') result.encoding = encoding;
    const content = htmlType || (type === '' && /^\s*<(!doctype html|html)/i.test(text)) ? await htmlToMarkdown(text, deadline, signal) : text;
    const maxChars = limits.maxChars ?? WEB_FETCH_MAX_CHARS;
    const cut = truncateText(content, maxChars);
    result.content = cut.text;
    if (cut.cut > 0 || body.truncated) {
      result.truncated = true;
      result.note = body.truncated
        ? `the body was longer than ${limits.maxBytes ?? WEB_FETCH_MAX_BYTES} bytes; only the start was read`
        : `the content was cut at ${maxChars} characters (${cut.cut} more); pass a larger max_chars to see more`;
    }
    return result;
  } catch (error) {
    if (timer.aborted && !ctx.signal.aborted) {
      throw new ToolError('timeout', `fetching ${quoteForMessage(rawUrl)} took longer than ${timeoutMs} ms; try again or fetch a smaller page`);
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (error instanceof ToolError) throw error;
    const message = error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
    throw new ToolError('execution_failed', `fetching ${quoteForMessage(rawUrl)} failed: ${message}`);
  }
}

/**
 * `web_fetch` of toolhost's own set: `{ url, max_chars? }` → {@link WebFetchResult}, the page as
 * Markdown (see {@link fetchAsMarkdown} for the policy, caps and redirects). Read-only; reaches the
 * open web. Where the platform has no network, an empty result with a note.
 */
export const webFetchTool: ExecuteTool<{ url: string; max_chars?: number }, WebFetchResult> = /* @__PURE__ */ defineTool({
  name: 'web_fetch',
  annotations: { title: 'Fetch web page', readOnlyHint: true, openWorldHint: true },
  description:
    'Fetch a web page (http or https) and return its content as Markdown (other text as is). Redirects are followed ' +
    `(at most ${WEB_FETCH_MAX_REDIRECTS}); at most ${WEB_FETCH_MAX_BYTES} bytes are read and max_chars characters returned ` +
    `(default ${WEB_FETCH_MAX_CHARS}). The platform's network policy decides which URLs may be fetched.`,
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The absolute http(s) URL to fetch.' },
      max_chars: { type: 'integer', minimum: 1, maximum: 1_000_000, description: `Most characters of content to return (default ${WEB_FETCH_MAX_CHARS}).` },
    },
    required: ['url'],
    additionalProperties: false,
  } as const,
  execute: async ({ url, max_chars }, ctx) => fetchAsMarkdown(ctx, url, max_chars === undefined ? {} : { maxChars: max_chars }),
});
