import { defineTool } from '../core/tool.js';
const parameters = {
    type: 'object',
    properties: {
        query: { type: 'string', description: 'What to search the web for.' },
    },
    required: ['query'],
    additionalProperties: false,
};
/**
 * The built-in `web_search` / `google_search` fallback:
 * the runner uses it when no registered tool has either name. It hands the query to
 * `platform.webSearch`; a platform without one returns `{ results: [], note }`, an empty query
 * `{ results: [], note: 'Empty query' }`. Always a success: network failures come back as `{ results: [], error }`.
 */
export const webSearchFallbackTool = defineTool({
    name: 'web_search',
    annotations: { title: 'Web search', readOnlyHint: true, openWorldHint: true },
    description: 'Search the web. Returns up to 10 results as { title, url, snippet }. Where the platform cannot search ' +
        '(the browser), returns no results and a note saying so.',
    parameters,
    readOnly: true,
    callWithContext: async ({ query }, ctx) => {
        if (query.trim() === '')
            return { results: [], note: 'Empty query' };
        const platform = ctx.platform;
        if (!platform.capabilities.webSearch || !platform.webSearch) {
            return {
                results: [],
                note: platform.name === 'web' ? 'Search is not available in the browser' : `Search is not available on the ${platform.name} platform`,
            };
        }
        try {
            const found = await platform.webSearch(query, ctx.signal);
            return { ...found, results: found.results.slice(0, 10) };
        }
        catch (error) {
            if (ctx.signal.aborted)
                throw error;
            return { results: [], error: error instanceof Error ? error.message : String(error) };
        }
    },
});
//# sourceMappingURL=web-search.js.map