// HTML → Markdown for web_fetch, bounded: the page's structure is checked in one streaming pass first
// (nesting depth and node count, against caps), then converted with the unified collective's
// converters (hast → mdast → Markdown, GitHub tables), the deadline checked while they run. Built
// into lazy/html-markdown.min.js (scripts/build-lazy.mjs): on Node a worker thread runs it (lazy/
// threads.js), elsewhere the calling thread. Imports only leaf utilities and the libraries.
import { fromHtml } from 'hast-util-from-html';
import { defaultHandlers as mdastHandlers, defaultNodeHandlers as mdastNodeHandlers, toMdast } from 'hast-util-to-mdast';
import { Parser } from 'htmlparser2';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { defaultHandlers as markdownHandlers, toMarkdown, type Handlers, type Options as MarkdownOptions } from 'mdast-util-to-markdown';
import { ToolError } from '../../core/errors.js';

/**
 * Deepest element nesting converted (elements open inside one another, as an HTML parser with implied
 * end tags counts them). The converters recurse once per level; past this a page answers `too_large`.
 */
export const HTML_MAX_DEPTH = 1000;
/** Most elements and text nodes converted in one page; past this a page answers `too_large`. */
export const HTML_MAX_NODES = 500_000;
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
}

/** Thrown out of the scan's callbacks to stop it at the first cap passed. */
class StopScan {
  constructor(readonly error: ToolError) {}
}

/**
 * Checks the page's structure in one streaming pass (htmlparser2, which knows implied end tags and
 * void elements, so `<p>a<p>b` is two siblings), stopping at the first cap passed: no tree is built,
 * and a parser step costs at most the depth cap, so a hostile page costs time linear in its size.
 * Throws `too_large` naming the structure.
 */
function checkStructure(html: string, maxDepth: number, maxNodes: number): void {
  let depth = 0;
  let nodes = 0;
  const count = (): void => {
    nodes += 1;
    if (nodes > maxNodes) {
      throw new StopScan(new ToolError('too_large', `the page has more than ${maxNodes} elements and text nodes, more than web_fetch converts; fetch a smaller page (a section's own URL, a printable or plain-text version)`));
    }
  };
  const parser = new Parser(
    {
      onopentag: () => {
        depth += 1;
        count();
        if (depth > maxDepth) {
          throw new StopScan(new ToolError('too_large', `the page nests elements more than ${maxDepth} deep, deeper than web_fetch converts; fetch another version of the page (a printable or plain-text one) or another page`));
        }
      },
      onclosetag: () => {
        depth -= 1;
      },
      ontext: count,
    },
    { decodeEntities: false },
  );
  try {
    parser.end(html);
  } catch (error) {
    if (error instanceof StopScan) throw error.error;
    throw error;
  }
}

/** A function that throws `timeout` once `deadline` has passed, checking the clock every {@link CHECK_EVERY} calls. */
function deadlineCheck(deadline: number | undefined): () => void {
  if (deadline === undefined) return () => undefined;
  let calls = 0;
  return () => {
    calls += 1;
    if (calls % CHECK_EVERY === 0 && Date.now() > deadline) {
      throw new ToolError('timeout', 'converting the page to Markdown took past the deadline; try again with a longer deadline or fetch a smaller page');
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
 * nodes. Synchronous: run it where blocking is acceptable (a worker thread) or bounded by the caps.
 *
 * Errors: `too_large` (nested deeper than `maxDepth`, more than `maxNodes` elements and text nodes, or
 * a structure the converters cannot recurse through), `timeout` (past `deadline`).
 */
export function htmlToMarkdown(html: string, options: HtmlToMarkdownOptions = {}): string {
  const maxDepth = options.maxDepth ?? HTML_MAX_DEPTH;
  checkStructure(html, maxDepth, options.maxNodes ?? HTML_MAX_NODES);
  const check = deadlineCheck(options.deadline);
  try {
    const hast = fromHtml(html);
    check();
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
