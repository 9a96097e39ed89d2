/**
 * Gemini CLI's `read_many_files` and the inline data of its `read_file`: text files concatenated with
 * `--- <path> ---` separators and a closing `--- End of content ---`; images and PDFs returned as inline
 * data (base64 with their MIME type) when asked for by name or extension; default excludes (dependency
 * and build folders, binary and media types) unless `useDefaultExcludes` is false; `.gitignore` and
 * `.geminiignore` honoured per `file_filtering_options`.
 */
import { ToolError } from '../../core/errors.js';
import type { ExecuteTool, ToolContext } from '../../core/tool.js';
import { inlineImageRefusal } from '../../fs/image-header.js';
import { encodeBase64, isInlineImageType, sniffMimeType } from '../../fs/mime.js';
import { resolveWorkspacePath, relativePath } from '../../fs/paths.js';
import { compileGlob, loadGlobMatcher } from '../../search/glob.js';
import { findFileTool, type FindFileResult } from '../find-file.js';
import { viewFileTool, type ViewFileResult } from '../view-file.js';
import { geminiIgnoreTest } from './gemini-ignore.js';

/** Largest image or PDF returned as inline data (Gemini CLI's 20 MB file limit). */
export const GEMINI_INLINE_MAX_BYTES = 20 * 1024 * 1024;
/** Most characters of text `read_many_files` returns; files past it are listed as skipped. */
export const READ_MANY_MAX_CHARS = 200_000;
/** Most files one `read_many_files` call reads. */
export const READ_MANY_MAX_FILES = 500;
/** The line after the last file (Gemini CLI's). */
export const READ_MANY_END = '--- End of content ---';

/** Folders left out by default (Gemini CLI's default excludes). */
const DEFAULT_EXCLUDED_DIRS = new Set(['node_modules', '.git', 'bower_components', '.svn', '.hg', '.vscode', '.idea', 'dist', 'build', 'coverage', '__pycache__']);
/** Binary types left out by default. */
const BINARY_EXTENSIONS = new Set(['.bin', '.exe', '.dll', '.so', '.dylib', '.class', '.jar', '.war', '.zip', '.tar', '.gz', '.bz2', '.rar', '.7z', '.pak', '.rpa', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx', '.odt', '.ods', '.odp', '.pyc', '.pyo']);
/** Media read only when asked for by name or extension. */
const MEDIA_EXTENSIONS = new Set(['.pdf', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.bmp', '.svg']);
const SYSTEM_FILES = new Set(['.DS_Store', '.env']);

/** An image or PDF as inline data. */
export interface InlineFile {
  file_path: string;
  mime_type: string;
  data_base64: string;
}

/** Arguments of Gemini's `read_many_files`. */
export interface GeminiReadManyArgs {
  include: string[];
  exclude?: string[];
  recursive?: boolean;
  useDefaultExcludes?: boolean;
  file_filtering_options?: { respect_git_ignore?: boolean; respect_gemini_ignore?: boolean };
}

/** Result of `read_many_files`. */
export interface GeminiReadManyResult {
  /** Text files, each `--- <path> ---`, a blank line, its content and a blank line; then `--- End of content ---`. */
  content: string;
  /** Paths read, in order (text and inline). */
  files: string[];
  /** Images and PDFs asked for by name or extension. */
  inline?: InlineFile[];
  /** Files found but not read, with why. */
  skipped?: Array<{ file_path: string; reason: string }>;
  note?: string;
}

const extOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
};
const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

async function call<A, R>(tool: ExecuteTool<A, R>, args: A, ctx: ToolContext): Promise<R> {
  return tool.execute(args, ctx);
}

/** Why a default exclude leaves `rel` out, or undefined. */
function defaultExcluded(rel: string): string | undefined {
  const parts = rel.split('/');
  if (parts.slice(0, -1).some((p) => DEFAULT_EXCLUDED_DIRS.has(p))) return 'in a folder excluded by default (useDefaultExcludes: false reads it)';
  const name = parts[parts.length - 1] as string;
  if (SYSTEM_FILES.has(name) || BINARY_EXTENSIONS.has(extOf(name))) return 'a file type excluded by default (useDefaultExcludes: false reads it)';
  return undefined;
}

/** The files `include` names: existing files as they are, folders as everything under them, the rest as globs. */
async function expandIncludes(args: GeminiReadManyArgs, ctx: ToolContext): Promise<string[]> {
  const found = new Set<string>();
  const scope = { fs: ctx.fs, root: ctx.platform.root, cwd: ctx.cwd };
  for (const pattern of args.include) {
    let pathStats: { isFile(): boolean; isDirectory(): boolean } | undefined;
    let path: string | undefined;
    if (!/[*?[{]/.test(pattern)) {
      try {
        path = await resolveWorkspacePath(scope, pattern, { argName: 'include' });
        pathStats = await ctx.fs.stat(path);
      } catch {
        pathStats = undefined;
      }
    }
    if (pathStats?.isFile() && path) {
      found.add(path);
      continue;
    }
    const glob = pathStats?.isDirectory() && path ? { pattern: '**', dir_path: path } : { pattern: args.recursive === false || pattern.includes('/') ? pattern : `**/${pattern}` };
    const listed = await call(findFileTool, { ...glob, include_ignored: args.file_filtering_options?.respect_git_ignore === false, max_results: 10_000 }, ctx);
    for (const file of (listed as FindFileResult).files) found.add(file);
  }
  return [...found].sort();
}

/** Gemini CLI's `read_many_files` on toolhost (see the module's comment). */
export async function geminiReadMany(args: GeminiReadManyArgs, ctx: ToolContext): Promise<GeminiReadManyResult> {
  if (!Array.isArray(args.include) || args.include.length === 0) {
    throw new ToolError('invalid_arguments', 'include needs at least one path or glob (e.g. ["src/**/*.ts"], ["README.md", "docs/"])');
  }
  await loadGlobMatcher();
  const excludes = (args.exclude ?? []).map((p) => compileGlob(p.endsWith('/') ? `${p}**` : p, { argName: 'exclude' }));
  const ignored = await geminiIgnoreTest(ctx, args.file_filtering_options?.respect_gemini_ignore !== false);
  const skipped: Array<{ file_path: string; reason: string }> = [];
  const parts: string[] = [];
  const files: string[] = [];
  const inline: InlineFile[] = [];
  let chars = 0;
  for (const path of await expandIncludes(args, ctx)) {
    const rel = relativePath(ctx.cwd, path);
    const skip = (reason: string): void => void skipped.push({ file_path: path, reason });
    if (excludes.some((m) => m.matches(rel) || m.matches(baseOf(path)))) continue;
    if (ignored?.(path, false)) continue;
    const byDefault = args.useDefaultExcludes === false ? undefined : defaultExcluded(rel);
    if (byDefault) {
      skip(byDefault);
      continue;
    }
    if (files.length >= READ_MANY_MAX_FILES) {
      skip(`past the ${READ_MANY_MAX_FILES}-file limit of one call: narrow include`);
      continue;
    }
    const ext = extOf(baseOf(path));
    if (MEDIA_EXTENSIONS.has(ext)) {
      const stem = baseOf(path).slice(0, baseOf(path).length - ext.length);
      if (!args.include.some((p) => p.toLowerCase().includes(ext) || p.includes(stem))) {
        skip('asset file (image/pdf) was not explicitly requested by name or extension');
        continue;
      }
      const data = await inlineData(ctx, path);
      if (typeof data === 'string') skip(data);
      else {
        inline.push(data);
        files.push(path);
      }
      continue;
    }
    if (chars >= READ_MANY_MAX_CHARS) {
      skip(`past the ${READ_MANY_MAX_CHARS}-character limit of one call: read it with read_file or narrow include`);
      continue;
    }
    const read = await call(viewFileTool, { file_path: path }, ctx).catch((error: unknown) => error as Error);
    if (read instanceof Error) {
      skip(read.message);
      continue;
    }
    if (!('content' in read)) {
      skip('a binary file');
      continue;
    }
    const cut = read.end_line < read.total_lines;
    const body = `${cut ? "[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\n" : ''}${read.content}`;
    parts.push(`--- ${path} ---\n\n${body}\n\n`);
    chars += body.length;
    files.push(path);
  }
  const result: GeminiReadManyResult = { content: files.length > 0 ? `${parts.join('')}\n${READ_MANY_END}` : 'No files matching the criteria were found or all were skipped.', files };
  if (inline.length > 0) result.inline = inline;
  if (skipped.length > 0) result.skipped = skipped;
  return result;
}

/**
 * An image or PDF of at most {@link GEMINI_INLINE_MAX_BYTES} as inline data, or why it is not: a png,
 * jpeg, gif or webp goes through view_file's check (`inlineImageRefusal`: a complete, valid header and
 * at most 8000 px per side), so one a model would refuse is never sent.
 */
export async function inlineData(ctx: ToolContext, path: string): Promise<InlineFile | string> {
  const stats = await ctx.fs.stat(path);
  if (stats.size > GEMINI_INLINE_MAX_BYTES) return `larger than ${GEMINI_INLINE_MAX_BYTES} bytes, too large to return inline`;
  const bytes = await ctx.fs.readFile(path);
  const sniffed = sniffMimeType(bytes);
  const mime = sniffed === 'application/octet-stream' && extOf(path) === '.svg' ? 'image/svg+xml' : sniffed;
  if (!mime.startsWith('image/') && mime !== 'application/pdf') return `not an image or PDF (${mime})`;
  const refusal = isInlineImageType(mime) ? inlineImageRefusal(bytes, mime) : undefined;
  if (refusal !== undefined) return refusal;
  return { file_path: path, mime_type: mime, data_base64: encodeBase64(bytes) };
}

/**
 * Gemini's read_file for a PDF (a `.pdf` file, or bytes that start as one): the document as inline data
 * with view_file's answer (as Gemini CLI sends PDFs to the model), even when its bytes happen to be text.
 */
export async function withPdfData(result: ViewFileResult, ctx: ToolContext): Promise<ViewFileResult> {
  if ('data_base64' in result) return result;
  const pdf = 'binary' in result ? result.mime_type === 'application/pdf' : extOf(result.file_path) === '.pdf';
  if (!pdf) return result;
  const data = await inlineData(ctx, result.file_path);
  if (typeof data === 'string') return 'binary' in result ? { ...result, note: `The PDF is ${data}` } : result;
  const stats = await ctx.fs.stat(result.file_path);
  return { file_path: result.file_path, binary: true, size: stats.size, mime_type: data.mime_type, data_base64: data.data_base64 };
}
