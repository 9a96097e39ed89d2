// toolhost's search engine (`Platform.search`): the requests of the search tools answered with the
// walk (walk.ts), the content search (line-search.ts) and the search index, reading through a search
// source where the platform gives one (Node's helper threads, the memory platform's in-place texts),
// else through the call's `fs`.
import type { FileSearchRequest, FileSearchResponse, LineSearchRequest, Platform, SearchContext, SearchEngine, SearchRequest } from '../core/types.js';
import { compileSearchPattern, loadSearchPatternParser, prepareSearchPattern, type SearchPattern } from './dialect.js';
import { compileGlob, loadGlobMatcher, type GlobMatcher } from './glob.js';
import { runLineSearch, type GrepSearchResult } from './line-search.js';
import { walkWorkspace } from './walk.js';
import { attachSearchSource, compiledFor, withCompiled } from './engine-source.js';
import { checkFilesResponse, checkLinesResult, isOwnEngine, markOwnEngine, type AnswerScope } from './engine-check.js';
import { resolveWorkspacePath } from '../fs/paths.js';
import type { SearchSource } from './source-port.js';

/** Options of {@link createSearchEngine}. */
export interface SearchEngineOptions {
  /** The fast reader to list and read through (see {@link SearchSource}); absent: the call's `fs`. */
  source?: SearchSource;
}

/**
 * A search engine answering the search tools' requests with toolhost's own search: `lines` with the
 * content search (walk, ignore rules, the dialect, the search index where the platform keeps one),
 * `files` with the walk. With `source`, listings and reads go through it (and its cache, and its
 * helper thread where it has one); without, through the call's `fs` (what a platform without
 * `search` gets). Errors: as {@link SearchEngine}'s; a request of an unknown `kind` is a TypeError.
 */
export function createSearchEngine(options: SearchEngineOptions = {}): SearchEngine {
  const { source } = options;
  const engine: SearchEngine = {
    search: (request, ctx) => {
      if (request.kind === 'lines') return searchLines(request, ctx, source);
      if (request.kind === 'files') return searchFiles(request, ctx, source);
      return Promise.reject(new TypeError(`a search request's kind is 'lines' or 'files', not ${String((request as { kind?: unknown }).kind)}`));
    },
  };
  if (source) attachSearchSource(engine, source);
  markOwnEngine(engine);
  return engine;
}

/** The engine of a platform without `search`: reads through the call's `fs`. */
const fsEngine = createSearchEngine();

/** The engine `platform`'s search tools ask: its own `search`, else the default one over `fs`. */
export function searchEngineOf(platform: Pick<Platform, 'search'>): SearchEngine {
  const engine = platform.search;
  if (engine === undefined) return fsEngine;
  if (typeof engine !== 'object' || engine === null || typeof engine.search !== 'function') throw new TypeError('platform.search must be a search engine: an object with a search(request, ctx) method');
  return engine;
}

/**
 * Asks `ctx.platform`'s engine for a content search, with the `pattern` the tool compiled from it (the
 * default engine takes it as it is). The result as {@link runLineSearch} shapes it. An engine that is
 * not toolhost's has its answer checked: a TypeError names a field of the wrong shape or a path
 * outside the workspace.
 */
export async function askLines(ctx: SearchContext, request: LineSearchRequest, pattern: SearchPattern): Promise<GrepSearchResult> {
  const engine = searchEngineOf(ctx.platform);
  const response = await engine.search(withCompiled(request, pattern), ctx);
  if (response?.kind !== 'lines') throw wrongKind(request, response);
  // The host's own engine's answer is checked before the model sees it (a TypeError names what is wrong).
  return isOwnEngine(engine) ? response.result : checkLinesResult(response.result, request, await answerScope(ctx, request));
}

/**
 * Where an engine's answer to `request` may name files: inside the folder `dirPath` names, or that
 * file alone, resolved as toolhost's engine resolves it; the workspace when it cannot be resolved
 * (the engine answered for a path that is not there: its paths are still held to the workspace).
 */
async function answerScope(ctx: SearchContext, request: LineSearchRequest): Promise<AnswerScope> {
  const workspace: AnswerScope = { within: ctx.platform.root, where: 'the workspace' };
  let start: string;
  try {
    start = await resolveWorkspacePath({ fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd }, request.dirPath ?? ctx.cwd, { argName: 'dir_path' });
  } catch {
    return workspace;
  }
  const stats = await ctx.fs.stat(start).catch(() => undefined);
  if (stats === undefined) return workspace;
  return stats.isDirectory() ? { within: start, where: start === ctx.platform.root ? 'the workspace' : 'the folder searched' } : { within: start, where: 'the file searched', file: true };
}

/**
 * Asks `ctx.platform`'s engine for a file listing, with the glob the tool compiled from it. An engine
 * that is not toolhost's has its answer checked (a TypeError names what is wrong; a path outside
 * `request.dir` is one) and its paths sorted, each once.
 */
export async function askFiles(ctx: SearchContext, request: FileSearchRequest, glob: GlobMatcher): Promise<FileSearchResponse> {
  const engine = searchEngineOf(ctx.platform);
  const response = await engine.search(withCompiled(request, glob), ctx);
  if (response?.kind !== 'files') throw wrongKind(request, response);
  return isOwnEngine(engine) ? response : checkFilesResponse(response, request, ctx.platform.root);
}

function wrongKind(request: SearchRequest, response: unknown): TypeError {
  const kind = (response as { kind?: unknown } | null | undefined)?.kind;
  return new TypeError(`the platform's search engine answered a '${request.kind}' request with ${kind === undefined ? 'no kind' : `kind ${String(kind)}`}; it must answer with the request's kind`);
}

async function searchLines(request: LineSearchRequest, ctx: SearchContext, source: SearchSource | undefined): Promise<{ kind: 'lines'; result: GrepSearchResult }> {
  let pattern = compiledFor(request) as SearchPattern | undefined;
  if (pattern === undefined) {
    await loadSearchPatternParser();
    pattern = await prepareSearchPattern(compileSearchPattern(request.pattern, { literal: request.literal, caseSensitive: request.caseSensitive }));
  }
  if (request.include || request.exclude) await loadGlobMatcher();
  const result = await runLineSearch(ctx, {
    pattern,
    dirPath: request.dirPath,
    include: request.include,
    exclude: request.exclude,
    contextLines: request.contextLines,
    outputMode: request.outputMode,
    maxResults: request.maxResults,
    ...(request.maxTimeMs === undefined ? {} : { maxTimeMs: request.maxTimeMs }),
    source,
  });
  return { kind: 'lines', result };
}

async function searchFiles(request: FileSearchRequest, ctx: SearchContext, source: SearchSource | undefined): Promise<FileSearchResponse> {
  let matcher = compiledFor(request) as GlobMatcher | undefined;
  if (matcher === undefined) {
    await loadGlobMatcher();
    matcher = compileGlob(request.glob, { caseSensitive: request.caseSensitive, base: { root: ctx.platform.root, dir: request.dir } });
  }
  const glob = matcher;
  const walked = await walkWorkspace({
    fs: ctx.fs,
    root: ctx.platform.root,
    dir: request.dir,
    changeCount: ctx.platform.changeCount,
    source,
    includeIgnored: request.includeIgnored,
    includeSymlinks: request.includeSymlinks,
    signal: ctx.signal,
    fileFilter: (rel) => glob.matches(rel),
    ...(request.deadline === undefined ? {} : { deadline: request.deadline }),
  });
  // The default sort orders strings by UTF-16 code units (as compareCodeUnits does), without a call per comparison.
  const paths = walked.files.map((file) => file.path).sort();
  return { kind: 'files', paths, capped: walked.capped, stopped: walked.stopped === true, directories: walked.directories, skipped: walked.skipped, ignoreDropped: walked.ignoreDropped };
}
