const __T=(l)=>{if(process.env.TL)globalThis.__tl?globalThis.__tl.push(l+' '+(performance.timeOrigin+performance.now()).toFixed(1)):console.log(l,(performance.timeOrigin+performance.now()).toFixed(1))};
import { ToolError } from '../core/errors.js';
import { basename, resolveWorkspacePath } from '../fs/paths.js';
import { clipForMessage } from '../fs/text.js';
import { compareCodeUnits, countSkippedUnder, loadTexts, MAX_SEARCH_FILE_BYTES, skipKindOf, throwIfAborted, walkWorkspace, yieldToEventLoop } from '../fs/walk.js';
import { compileGlob } from './glob.js';
import { MatchFormatter } from './line-output.js';
import { scanText, YIELD_EVERY_MS } from './line-scan.js';
import { scanStream } from './line-stream.js';
import { cacheOf, countText, FILE_BINARY, knownCount, needleOf, rememberCount, skipKindOfCode } from './source-cache.js';
export { MAX_LINE_CHARS } from './line-output.js';
/** Characters of `line`/`before`/`after` text one search returns before it stops adding matches. */
export const MAX_OUTPUT_CHARS = 200_000;
/** Largest `context_lines`. */
export const MAX_CONTEXT_LINES = 20;
/** Largest `max_results` of search_dir and grep_search. */
export const MAX_SEARCH_RESULTS = 2000;
/** Time a search spends before it returns what it found so far (ms), unless told otherwise. */
export const DEFAULT_SEARCH_TIME_MS = 10_000;
/** Largest `max_time_ms`. */
export const MAX_SEARCH_TIME_MS = 120_000;
/**
 * Share of what is left of the call's deadline (`ctx.deadline`) a search may spend, so that it stops
 * and answers with what it found, instead of the deadline ending it with a bare `timeout`.
 */
export const DEADLINE_SHARE = 0.8;
/**
 * Largest file searched on a platform whose `fs` has no `readRange` (it is read whole, then searched
 * window by window); bigger ones are counted in `large_files_skipped`.
 */
export const MAX_WHOLE_READ_BYTES = 256 * 1024 * 1024;
/**
 * Largest file the helper thread searches (16 MiB); bigger ones of its share are searched here, so the
 * helper's heap (its decoded texts) stays small.
 */
const HELPED_MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Files read (and held) at a time. */
const BATCH_FILES = 64;
/** The time budget of a search starting at `now`: `maxTimeMs`, or a share of what is left of the call's deadline when that is less. */
export function searchBudget(maxTimeMs, callDeadline, now) {
    if (callDeadline === undefined)
        return { ms: maxTimeMs, byDeadline: false };
    const share = Math.max(0, Math.floor((callDeadline - now) * DEADLINE_SHARE));
    return share < maxTimeMs ? { ms: share, byDeadline: true } : { ms: maxTimeMs, byDeadline: false };
}
function codeOf(error) {
    const code = error?.code;
    return typeof code === 'string' ? code : undefined;
}
/**
 * Resolves `dir_path` (default: the working directory) and lists the files to search, filtered by the
 * `include` / `exclude` globs (compiled relative to it, so absolute globs work).
 */
export async function filesToSearch(ctx, options) {
    const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
    const start = await resolveWorkspacePath(scope, options.dirPath ?? ctx.cwd, { argName: 'dir_path' });
    let stats;
    try {
        stats = await ctx.fs.stat(start);
    }
    catch (error) {
        if (codeOf(error) === 'ENOENT') {
            throw new ToolError('not_found', `dir_path ${clipForMessage(start)} does not exist; check the path with list_dir or find_file`);
        }
        throw error;
    }
    // A file as dir_path: search just that file (the globs are still checked).
    const base = stats.isDirectory() ? { root: ctx.platform.root, dir: start } : undefined;
    const include = options.include ? compileGlob(options.include, { argName: 'include', base }) : undefined;
    // `dist/` (as in .gitignore) names folders only: it prunes them and leaves files of that name alone.
    const foldersOnly = options.exclude !== undefined && options.exclude.length > 1 && options.exclude.endsWith('/');
    const excludeGlob = foldersOnly ? options.exclude.replace(/\/+$/, '') : options.exclude;
    const exclude = excludeGlob ? compileGlob(excludeGlob, { argName: 'exclude', base }) : undefined;
    const excludeFiles = foldersOnly ? undefined : exclude;
    if (!base)
        return { files: [{ path: start, rel: basename(start), symlink: false }], capped: false };
    return walkWorkspace({
        fs: ctx.fs,
        root: ctx.platform.root,
        dir: start,
        changeCount: ctx.platform.changeCount,
        source: ctx.platform.searchSource,
        signal: ctx.signal,
        fileFilter: include || excludeFiles ? (rel) => (!include || include.matches(rel)) && !excludeFiles?.matches(rel) : undefined,
        pruneDir: exclude ? (rel) => exclude.matches(rel) : undefined,
        ...(options.deadline === undefined ? {} : { deadline: options.deadline }),
        ...(options.onFiles === undefined ? {} : { onFiles: options.onFiles }),
    });
}
/**
 * The engine of search_dir and grep_search. Walks like find_file (skips `.git/`, `node_modules/`,
 * `.gitignore`d paths, symlinks), then reads the files in path order, a batch at a time, through the
 * platform's text cache, and scans each with {@link scanText} (the pattern's engine, linear in the
 * text); a file's matches are formatted while its text is at hand, so a search holds one batch of
 * texts beyond the cache. Lines are 1-based, columns 1-based code points, files sorted by path.
 * At its time budget ({@link searchBudget}: `maxTimeMs`, or {@link DEADLINE_SHARE} of what is left of
 * the call's deadline when that is less) it stops, the walk included, and returns what it found, with
 * `truncated` and a `note`; the call's signal (its deadline, a cancel) still ends it with `timeout` /
 * `cancelled` if anything else overruns.
 */
export async function runLineSearch(ctx, options) {
    const started = Date.now();
    const budget = searchBudget(options.maxTimeMs ?? DEFAULT_SEARCH_TIME_MS, ctx.deadline, started);
    const maxTimeMs = budget.ms;
    const deadline = started + maxTimeMs;
    const { pattern, maxResults } = options;
    const contextLines = options.contextLines ?? 0;
    const outputMode = options.outputMode ?? 'content';
    const source = ctx.platform.searchSource;
    const cache = source ? cacheOf(source) : undefined;
    const streamOver = options.streamOver ?? MAX_SEARCH_FILE_BYTES;
    // Counting a large tree with a helper thread: the walk hands the files over in batches as it lists them.
    const helper = source?.helper;
    const sharing = helper !== undefined && cache !== undefined && outputMode !== 'content' && pattern.compiledWith !== undefined ? helper.sharedFiles((path) => cache.holds(path)) : undefined;
    const onFiles = sharing
        ? (files, added) => sharing.add(files, added, () => ({ pattern: pattern.pattern, ...pattern.compiledWith, deadline, limit: Math.min(streamOver, HELPED_MAX_FILE_BYTES) }), ctx.signal)
        : undefined;
    let listed;
    try {
        __T('M start');
        listed = await filesToSearch(ctx, { dirPath: options.dirPath, include: options.include, exclude: options.exclude, deadline, ...(onFiles ? { onFiles } : {}) });
    }
    catch (error) {
        sharing?.cancel();
        throw error;
    }
    __T('M walked');
    const shared = sharing?.end();
    // A shared count sorts only the files that matched, once merged.
    if (!shared)
        listed.files.sort((a, b) => compareCodeUnits(a.path, b.path));
    const tally = { matches: [], files: [], totalMatches: 0, outputChars: 0, contentFull: false };
    let searched = 0;
    let binary = 0;
    let large = 0;
    let stopped = listed.stopped === true;
    let done = 0;
    let lastPause = Date.now();
    const pause = async () => {
        await yieldToEventLoop();
        lastPause = Date.now();
        throwIfAborted(ctx.signal);
    };
    const literal = pattern.mode === 'literal' ? pattern.literal : pattern.required;
    const needle = source ? needleOf(pattern) : undefined;
    const fatal = new TextDecoder('utf-8', { fatal: true });
    const decode = source
        ? (bytes) => (source.isUtf8(bytes) ? source.decode(bytes) : null)
        : (bytes) => {
            try {
                return fatal.decode(bytes);
            }
            catch {
                return null;
            }
        };
    /**
     * Searches a file too large to hold whole, window by window (ranged reads where `fs` has them);
     * 'binary', 'large' (no ranged reads and over {@link MAX_WHOLE_READ_BYTES}), 'gone', or whether the
     * time limit stopped the search.
     */
    const streamOne = async (path) => {
        const fs = ctx.fs;
        const mark = { matches: tally.matches.length, outputChars: tally.outputChars, contentFull: tally.contentFull };
        try {
            let size = (await fs.stat(path)).size;
            let read;
            if (fs.readRange) {
                const readRange = fs.readRange.bind(fs);
                read = (position, length) => readRange(path, position, length);
            }
            else {
                if (size > MAX_WHOLE_READ_BYTES)
                    return 'large';
                const all = await fs.readFile(path);
                size = all.length;
                read = (position, length) => all.subarray(position, position + length);
            }
            const result = await scanStream(path, { size, read, decode }, pattern, {
                deadline,
                pause,
                contextLines,
                wanted: () => (outputMode === 'content' && !tally.contentFull ? maxResults - tally.matches.length : 0),
                emit: (match) => addMatch(tally, match, maxResults),
                ...(options.streamWindow === undefined ? {} : { window: options.streamWindow }),
                ...(options.streamOverlap === undefined ? {} : { overlap: options.streamOverlap }),
            });
            if (result.binary) {
                tally.matches.length = mark.matches;
                tally.outputChars = mark.outputChars;
                tally.contentFull = mark.contentFull;
                return 'binary';
            }
            if (result.count > 0) {
                tally.totalMatches += result.count;
                tally.files.push({ path, count: result.count });
            }
            return result.stopped;
        }
        catch (error) {
            // Removed, replaced or made unreadable while the search ran: left out and counted, as the walk does.
            const kind = skipKindOf(error);
            if (kind === undefined)
                throw error;
            countSkippedUnder(ctx.signal, kind, path);
            tally.matches.length = mark.matches;
            tally.outputChars = mark.outputChars;
            tally.contentFull = mark.contentFull;
            return 'gone';
        }
    };
    /** Tallies a streamed file's answer; true when the time limit stopped the search. */
    const streamed = async (path) => {
        const outcome = await streamOne(path);
        if (outcome === 'gone')
            return false;
        if (outcome === 'large')
            large += 1;
        else if (outcome === 'binary')
            binary += 1;
        else {
            searched += 1;
            if (outcome)
                stopped = true;
            return outcome;
        }
        return false;
    };
    /** Scans one decoded text and tallies it; true when the time limit stopped the search. */
    const scanOne = async (path, text, wantOffsets) => {
        const result = await scanText(text, pattern, { deadline, wantOffsets, maxHits: Infinity, pause });
        if (result.count > 0) {
            tally.totalMatches += result.count;
            tally.files.push({ path, count: result.count });
            if (wantOffsets > 0)
                addMatches(tally, path, text, result.hits, contextLines, maxResults);
        }
        if (result.stopped)
            stopped = true;
        return result.stopped;
    };
    /**
     * A listed file through this thread's cache (see `SourceCache.load`); one that is gone or cannot be
     * read any more is left out and counted in `skipped_entries`, as the walk counts the entries it could
     * not list.
     */
    const loadHere = (path, keep, stat) => {
        let file;
        try {
            file = cache.load(path, streamOver, keep, stat);
        }
        catch (error) {
            const kind = skipKindOf(error);
            if (kind === undefined)
                throw error;
            countSkippedUnder(ctx.signal, kind, path);
            return undefined;
        }
        if (file === undefined)
            countSkippedUnder(ctx.signal, 'vanished', path);
        return file;
    };
    /**
     * A listed file ready to search on this thread (through {@link loadHere}), counted as reached and
     * searched; or, when there is nothing more to do with it here, a boolean: a file gone, skipped or
     * binary is tallied (false), one over the whole-read limit is streamed (whether the time limit
     * stopped that). Turns the event loop first when it is due, since bytes-only work takes no pause.
     */
    const readyHere = async (path, keep, stat) => {
        if (Date.now() - lastPause >= YIELD_EVERY_MS)
            await pause();
        const file = loadHere(path, keep, stat);
        done += 1;
        if (file === undefined)
            return false;
        if (file === 'large')
            return streamed(path);
        if (!file.bytes) {
            binary += 1;
            return false;
        }
        searched += 1;
        return file;
    };
    /**
     * Counts one file on this thread (read through its cache, kept there when `keep`; `stat`: its
     * `lstat` as the helper took it) and tallies it; true when the time limit stopped the search.
     */
    const countHere = async (path, keep, stat) => {
        const file = await readyHere(path, keep, stat);
        if (typeof file === 'boolean')
            return file;
        // countText pauses (setting lastPause) only when it decodes and scans a text; bytes-only counts
        // take no pause, so readyHere turns the event loop for them.
        const counted = await countText(cache, file, pattern, needle, deadline, pause);
        if (counted.count > 0) {
            tally.totalMatches += counted.count;
            tally.files.push({ path, count: counted.count });
        }
        if (counted.stopped)
            stopped = true;
        return counted.stopped;
    };
    let files = listed.files;
    if (shared) {
        files = [];
        await helper.countShared(shared, countHere, () => stopped || Date.now() >= deadline, (path, code) => {
            done += 1;
            const skipped = skipKindOfCode(code);
            if (skipped)
                countSkippedUnder(ctx.signal, skipped, path);
            else if (code === FILE_BINARY)
                binary += 1;
            else if (code >= 0) {
                searched += 1;
                if (code > 0) {
                    tally.totalMatches += code;
                    tally.files.push({ path, count: code });
                }
            }
        });
        if (shared.stopped || Date.now() >= deadline)
            stopped = true;
        tally.files.sort((a, b) => compareCodeUnits(a.path, b.path));
    }
    for (let i = 0; i < files.length && !stopped; i += BATCH_FILES) {
        throwIfAborted(ctx.signal);
        if (Date.now() >= deadline) {
            stopped = true;
            break;
        }
        const batch = files.slice(i, i + BATCH_FILES);
        if (source) {
            // Bytes first: a file that cannot hold the literal is never decoded; a literal count never decodes.
            for (const walked of batch) {
                const wantOffsets = outputMode === 'content' && !tally.contentFull ? maxResults - tally.matches.length : 0;
                if (wantOffsets === 0) {
                    // A file the helper thread caches is read here without being cached twice.
                    if (await countHere(walked.path, !helper?.owns(walked.path)))
                        break;
                    continue;
                }
                const file = await readyHere(walked.path, !helper?.owns(walked.path));
                if (file === true)
                    break;
                if (file === false)
                    continue;
                if (needle && literal) {
                    // A file remembered or found without the literal cannot match.
                    if (knownCount(file, literal) === 0)
                        continue;
                    if (source.indexOf(file.bytes, needle, file.skip) === -1) {
                        rememberCount(file, literal, 0);
                        continue;
                    }
                }
                if (await scanOne(walked.path, cache.text(file), wantOffsets))
                    break;
            }
            continue;
        }
        const loaded = await loadTexts(ctx.platform, batch, ctx.signal, streamOver);
        for (const file of loaded) {
            if (!file.entry) {
                done += 1;
                if (!file.tooLarge)
                    binary += 1;
                else if (await streamed(file.path))
                    break;
                continue;
            }
            searched += 1;
            const wantOffsets = outputMode === 'content' && !tally.contentFull ? maxResults - tally.matches.length : 0;
            done += 1;
            if (await scanOne(file.path, file.entry.text, wantOffsets))
                break;
        }
    }
    const counters = {
        total_matches: tally.totalMatches,
        truncated: listed.capped || stopped,
        files_searched: searched,
        binary_files_skipped: binary,
    };
    if (large > 0)
        counters.large_files_skipped = large;
    if (stopped) {
        const limit = budget.byDeadline ? `${maxTimeMs} ms, ${DEADLINE_SHARE * 100} % of what was left of the call's deadline` : `${maxTimeMs} ms`;
        const covered = !listed.stopped
            ? `after ${done} of ${listed.files.length} files; the results cover those files only`
            : listed.files.length === 0
                ? 'while listing files, before it had listed any; no file was searched'
                : `while listing files, after ${done} of the ${listed.files.length} files listed so far; the results cover those files only`;
        const next = budget.byDeadline ? 'narrow dir_path or include, or use a simpler pattern' : 'narrow dir_path or include, use a simpler pattern, or raise max_time_ms';
        counters.note = `the search stopped at its time limit (${limit}) ${covered}: ${next}.`;
    }
    if (outputMode === 'files_with_matches') {
        const files = tally.files.slice(0, maxResults).map((file) => file.path);
        return { files, total_files: tally.files.length, ...counters, truncated: counters.truncated || files.length < tally.files.length };
    }
    if (outputMode === 'count') {
        const counts = tally.files.slice(0, maxResults).map((file) => ({ file_path: file.path, count: file.count }));
        return { counts, total_files: tally.files.length, ...counters, truncated: counters.truncated || counts.length < tally.files.length };
    }
    return { matches: tally.matches, ...counters, truncated: counters.truncated || tally.matches.length < tally.totalMatches };
}
function addMatches(tally, path, text, hits, contextLines, maxResults) {
    const formatter = new MatchFormatter(text);
    for (const hit of hits) {
        if (tally.matches.length >= maxResults || hit.start < 0) {
            tally.contentFull = true;
            return;
        }
        if (!addMatch(tally, formatter.format(path, hit, contextLines), maxResults))
            return;
    }
    if (tally.matches.length >= maxResults)
        tally.contentFull = true;
}
/** Adds one formatted match within the output budget; false (and the content full) once it is spent. */
function addMatch(tally, match, maxResults) {
    if (tally.contentFull || tally.matches.length >= maxResults) {
        tally.contentFull = true;
        return false;
    }
    let size = match.line.length;
    for (const part of match.before ?? [])
        size += part.length;
    for (const part of match.after ?? [])
        size += part.length;
    if (tally.outputChars + size > MAX_OUTPUT_CHARS && tally.matches.length > 0) {
        tally.contentFull = true;
        return false;
    }
    tally.outputChars += size;
    tally.matches.push(match);
    if (tally.matches.length >= maxResults)
        tally.contentFull = true;
    return true;
}
//# sourceMappingURL=line-search.js.map