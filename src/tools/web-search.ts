import { isToolError, ToolError } from '../core/errors.js';
import { defineTool, type ExecuteTool } from '../core/tool.js';
import type { WebSearchResult } from '../core/types.js';

const inputSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'What to search the web for.' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/**
 * The built-in `web_search` / `google_search` fallback:
 * the runner uses it when no registered tool has either name. It hands the query to
 * `platform.webSearch`; a platform without one returns `{ results: [], note }`, an empty query
 * `{ results: [], note: 'Empty query' }`. A search that failed (network down, the service refused or
 * timed out) is the ToolError `unavailable` with the platform's message (a search that threw a
 * ToolError keeps its code; one that resolved `{ error }` becomes `unavailable` with that text), so a
 * failure never reads as "no results".
 */
export const webSearchFallbackTool: ExecuteTool<{ query: string }, WebSearchResult> = defineTool({
  name: 'web_search',
  annotations: { title: 'Web search', readOnlyHint: true, openWorldHint: true },
  description:
    'Search the web. Returns up to 10 results as { title, url, snippet }. Where the platform cannot search ' +
    '(the browser), returns no results and a note saying so.',
  inputSchema,
  execute: async ({ query }, ctx): Promise<WebSearchResult> => {
    if (query.trim() === '') return { results: [], note: 'Empty query' };
    const platform = ctx.platform;
    if (!platform.capabilities.webSearch || !platform.webSearch) {
      return {
        results: [],
        note: platform.name === 'web' ? 'Search is not available in the browser' : `Search is not available on the ${platform.name} platform`,
      };
    }
    let found: WebSearchResult;
    try {
      found = await platform.webSearch(query, ctx.signal);
    } catch (error) {
      if (ctx.signal.aborted || isToolError(error)) throw error;
      throw new ToolError('unavailable', `Search failed: ${error instanceof Error ? error.message : String(error)}; try again later, or go on without web results`);
    }
    if (typeof found.error === 'string' && found.error !== '') {
      throw new ToolError('unavailable', `${found.error.replace(/[.;]\s*$/, '')}; try again later, or go on without web results`);
    }
    return { ...found, results: found.results.slice(0, 10) };
  },
});
