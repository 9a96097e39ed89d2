// The structure check of web_fetch's HTML: nesting depth and node count against caps, in one
// streaming pass (htmlparser2, which knows implied end tags and void elements) that builds no tree.
// Built into lazy/html-check.min.js (scripts/build-lazy.mjs): on Node the calling thread runs it in
// slices before a page is queued for conversion on a worker thread, so a hostile page is refused at
// once, never after waiting behind other pages' conversions; the converter (html.ts) runs it whole.
// Imports only leaf utilities and the parser.
import { Parser } from 'htmlparser2';
import { ToolError } from '../../core/errors.js';
import { throwIfAborted, yieldToEventLoop } from '../../fs/abort.js';

/**
 * Deepest element nesting converted (elements open inside one another, as an HTML parser with implied
 * end tags counts them). The converters recurse once per level; past this a page answers `too_large`.
 */
export const HTML_MAX_DEPTH = 1000;
/** Most elements and text nodes converted in one page; past this a page answers `too_large`. */
export const HTML_MAX_NODES = 500_000;
/** Characters parsed between two event-loop turns by {@link checkStructureInSlices} (about a millisecond of parsing). */
const SLICE_CHARS = 64 * 1024;

/** Thrown out of the parser's callbacks to stop it at the first cap passed. */
class StopScan {
  constructor(readonly error: ToolError) {}
}

/** A streaming parser that counts depth and nodes and throws {@link StopScan} at the first cap passed. */
function structureParser(maxDepth: number, maxNodes: number): Parser {
  let depth = 0;
  let nodes = 0;
  const count = (): void => {
    nodes += 1;
    if (nodes > maxNodes) {
      throw new StopScan(new ToolError('too_large', `the page has more than ${maxNodes} elements and text nodes, more than web_fetch converts; fetch a smaller page (a section's own URL, a printable or plain-text version)`));
    }
  };
  return new Parser(
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
}

/** Runs `step`, turning a {@link StopScan} into its ToolError. */
function scanning(step: () => void): void {
  try {
    step();
  } catch (error) {
    if (error instanceof StopScan) throw error.error;
    throw error;
  }
}

/**
 * Checks the page's structure in one pass, stopping at the first cap passed: a parser step costs at
 * most the depth cap, so a hostile page costs time linear in its size. Synchronous.
 *
 * Errors: `too_large` (nested deeper than `maxDepth`, or more than `maxNodes` elements and text nodes),
 * with a message naming which.
 */
export function checkStructure(html: string, maxDepth = HTML_MAX_DEPTH, maxNodes = HTML_MAX_NODES): void {
  const parser = structureParser(maxDepth, maxNodes);
  scanning(() => parser.end(html));
}

/** Options of {@link checkStructureInSlices}. */
export interface StructureCheckOptions {
  /** Deepest nesting accepted (default {@link HTML_MAX_DEPTH}). */
  maxDepth?: number;
  /** Most elements and text nodes accepted (default {@link HTML_MAX_NODES}). */
  maxNodes?: number;
  /** Ends the check between two slices with the signal's reason (`timeout` or `cancelled`). */
  signal?: AbortSignal;
}

/**
 * {@link checkStructure} 64 Ki characters at a time with an event-loop turn between slices, so the
 * calling thread's timers and other calls go on during the check of a page of megabytes. The parser
 * streams, so the answer is the one a whole pass gives.
 *
 * Errors: `too_large` as {@link checkStructure}; `timeout` / `cancelled` when `signal` aborts.
 */
export async function checkStructureInSlices(html: string, options: StructureCheckOptions = {}): Promise<void> {
  const parser = structureParser(options.maxDepth ?? HTML_MAX_DEPTH, options.maxNodes ?? HTML_MAX_NODES);
  for (let at = 0; at < html.length; at += SLICE_CHARS) {
    scanning(() => parser.write(html.slice(at, at + SLICE_CHARS)));
    await yieldToEventLoop();
    throwIfAborted(options.signal);
  }
  scanning(() => parser.end());
}
