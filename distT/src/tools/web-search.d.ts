import { type Tool } from '../core/tool.js';
import type { WebSearchResult } from '../core/types.js';
/**
 * The built-in `web_search` / `google_search` fallback:
 * the runner uses it when no registered tool has either name. It hands the query to
 * `platform.webSearch`; a platform without one returns `{ results: [], note }`, an empty query
 * `{ results: [], note: 'Empty query' }`. Always a success: network failures come back as `{ results: [], error }`.
 */
export declare const webSearchFallbackTool: Tool<{
    query: string;
}, WebSearchResult>;
