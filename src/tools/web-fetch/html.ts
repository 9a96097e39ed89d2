// HTML → Markdown for web_fetch, bounded: the page's structure is checked in one streaming pass first
// (nesting depth and node count, against caps: html-check.ts), then converted with the unified collective's
// converters (hast → mdast → Markdown, GitHub tables), the deadline checked while they run. Built
// into lazy/html-markdown.min.js (scripts/build-lazy.mjs): on Node a worker thread runs it (lazy/
// threads.js), elsewhere the calling thread. Imports only leaf utilities and the libraries.
import { fromHtml } from 'hast-util-from-html';
import { defaultHandlers as mdastHandlers, defaultNodeHandlers as mdastNodeHandlers, toMdast } from 'hast-util-to-mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { defaultHandlers as markdownHandlers, toMarkdown, type Handlers, type Options as MarkdownOptions } from 'mdast-util-to-markdown';
import { ToolError } from '../../core/errors.js';
import { checkStructure, HTML_MAX_DEPTH, HTML_MAX_NODES } from './html-check.js';
import { tidyHtml } from './html-tidy.js';

/** Converter steps (nodes handled) between two checks of the deadline. */
const CHECK_EVERY = 512;

/** Options of {@link htmlToMarkdown}. */
export interface HtmlToMarkdownOptions {
  /** `Date.now()` time (ms) by which the conversion must end, else it throws `timeout`; none when undefined. */
  deadline?: number;
  /** Deepest nesting converted (default {@link HTML_MAX_DEPTH}). */
  maxDepth?: number;
  /** Most elements and text nodes converted (default {@link HTML_MAX_NODES}). */
  maxNodes?: number;
  /** The caller has run {@link checkStructure} (or its sliced form) with these caps already: not again. */
  checked?: boolean;
}

/** A function that throws `timeout` once `deadline` has passed, checking the clock every {@link CHECK_EVERY} calls. */
function deadlineCheck(deadline: number | undefined): () => void {
  if (deadline === undefined) return () => undefined;
  let calls = 0;
  return () => {
    calls += 1;
    if (calls % CHECK_EVERY === 0 && Date.now() > deadline) {
      throw new ToolError('timeout', "converting the page to Markdown took past this call's time limit; fetch a smaller page");
    }
  };
}

/** Each handler of `handlers` wrapped to call `check` first (keeping its `peek`, which mdast-util-to-markdown reads). */
function checked<T extends Record<string, unknown>>(handlers: T, check: () => void): T {
  const out: Record<string, unknown> = {};
  for (const [key, handler] of Object.entries(handlers)) {
    if (typeof handler !== 'function') continue;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      check();
      return (handler as (...a: unknown[]) => unknown).apply(this, args);
    };
    out[key] = Object.assign(wrapped, 'peek' in handler ? { peek: (handler as { peek: unknown }).peek } : {});
  }
  return out as T;
}

/** The handlers of a Markdown extension and those it includes, later ones winning (as mdast-util-to-markdown merges them). */
function extensionHandlers(extension: MarkdownOptions): Partial<Handlers> {
  const merged: Partial<Handlers> = {};
  for (const inner of extension.extensions ?? []) Object.assign(merged, extensionHandlers(inner));
  return Object.assign(merged, extension.handlers ?? {});
}

/**
 * `html` as Markdown (ending in one line break): the structure checked first against `maxDepth` and
 * `maxNodes`, then hast → mdast → Markdown with GitHub tables, the deadline checked every few hundred
 * nodes. Comments, scripts, styles and `hidden` elements are left out, and inline elements that
 * hold no text (empty emphasis, icon fonts) too, except empty links, which show their label or address. Synchronous: run it where blocking is acceptable (a worker thread) or bounded by the caps.
 *
 * Errors: `too_large` (nested deeper than `maxDepth`, more than `maxNodes` elements and text nodes, or
 * a structure the converters cannot recurse through), `timeout` (past `deadline`).
 */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  const maxDepth = options.maxDepth ?? HTML_MAX_DEPTH;
  if (options.checked !== true) checkStructure(html, maxDepth, options.maxNodes ?? HTML_MAX_NODES);
  const check = deadlineCheck(options.deadline);
  try {
    const hast = fromHtml(html);
    check();
    // Text-less inline elements, comments and scripts out first: the whitespace step in toMdast costs
    // time quadratic in a run of them (html-tidy.ts).
    tidyHtml(hast, check);
    const mdast = toMdast(hast, { handlers: checked(mdastHandlers, check), nodeHandlers: checked(mdastNodeHandlers, check) });
    const gfm = gfmToMarkdown();
    const handlers = checked({ ...markdownHandlers, ...extensionHandlers(gfm) } as Handlers, check);
    return toMarkdown(mdast, { extensions: [gfm], handlers }).trim() + '\n';
  } catch (error) {
    // A structure the scan let through but a converter recursed too deep on (it nests differently there).
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new ToolError('too_large', `the page nests elements too deeply for web_fetch to convert (at most ${maxDepth} levels are supported); fetch another version of the page (a printable or plain-text one) or another page`);
    }
    throw error;
  }
}
