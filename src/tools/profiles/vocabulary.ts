import { isToolError, ToolError, toToolError } from '../../core/errors.js';
import type { ExecuteTool, ToolContext } from '../../core/tool.js';
import { LEFT_RUNNING_ADVICE_FOREGROUND, leftRunningAdviceWithoutBackground } from '../run-command.js';

/** A phrase rewrite: the pattern (global), its replacement, and the profile tools it is for (all when absent). */
export type Phrase = readonly [pattern: RegExp, replacement: string, tools?: readonly string[]];

/**
 * How one tool profile speaks: the words of the built-ins' messages (tool names, parameter names and
 * the advice built on them) put in the profile's own terms. A profile tool is a thin layer over a
 * built-in, so the built-in's errors, hints and notes name `view_file`, `file_path` and the like; the
 * profile's model knows only its own tools, and would follow such a hint into `unknown_tool`.
 */
export interface Vocabulary {
  /** The profile's name, for messages about the vocabulary itself. */
  readonly profile: string;
  /**
   * Whole phrases, rewritten first, in order: advice whose words have no one-for-one counterpart in
   * the profile (a tool it lacks, a parameter with another shape) becomes what the profile can do.
   */
  readonly phrases: ReadonlyArray<Phrase>;
  /** Built-in tool name → the profile's way to do the same job (a tool name, or a short phrase). */
  readonly tools: Readonly<Record<string, string>>;
  /** Built-in parameter → the profile's: under `'*'` for every tool of the profile, else under the profile tool's name (which wins). */
  readonly params: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

const wordPatterns = new WeakMap<object, Map<string, { pattern: RegExp; words: Record<string, string> }>>();

function wordsFor(vocabulary: Vocabulary, toolName: string): { pattern: RegExp; words: Record<string, string> } | null {
  let byTool = wordPatterns.get(vocabulary);
  if (byTool === undefined) {
    byTool = new Map();
    wordPatterns.set(vocabulary, byTool);
  }
  const known = byTool.get(toolName);
  if (known !== undefined) return known;
  const words: Record<string, string> = { ...vocabulary.tools, ...vocabulary.params['*'], ...vocabulary.params[toolName] };
  const names = Object.keys(words).filter((name) => words[name] !== name);
  if (names.length === 0) return null;
  // Longest first, so that `dir_path` is not read as `dir` + `_path`. A name inside a path
  // (`/src/view_file.ts`) or a longer identifier is left alone, and so is anything quoted ("..." or
  // `...`): a line of the file, the model's own old text, a value. The quoted span is matched first
  // and given back as it is.
  names.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`"(?:[^"\\\\\\n]|\\\\.)*"|\`[^\`]*\`|(?<![\\w/.-])(?:${names.join('|')})(?![\\w/]|\\.\\w)`, 'g');
  const entry = { pattern, words };
  byTool.set(toolName, entry);
  return entry;
}

/** `text` (a message, hint or note of a built-in) in the words of `vocabulary`, as the profile tool `toolName` says it. */
export function speak(vocabulary: Vocabulary, toolName: string, text: string): string {
  let out = text;
  for (const [pattern, replacement, tools] of vocabulary.phrases) if (tools === undefined || tools.includes(toolName)) out = out.replace(pattern, replacement);
  const words = wordsFor(vocabulary, toolName);
  if (words === null) return out;
  return out.replace(words.pattern, (found) => words.words[found] ?? found);
}

/** The result with its `note` (and the `note` / `error` of each entry of `results`, as a multi-fetch answers) in the profile's words. */
function speakResult(vocabulary: Vocabulary, toolName: string, result: unknown): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const record = result as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  if (typeof record.note === 'string') {
    const note = speak(vocabulary, toolName, record.note);
    if (note !== record.note) out = { ...record, note };
  }
  if (Array.isArray(record.results)) {
    const results = record.results.map((entry) => {
      if (typeof entry !== 'object' || entry === null) return entry;
      const item = entry as Record<string, unknown>;
      const next = { ...item };
      for (const key of ['note', 'error'] as const) if (typeof item[key] === 'string') next[key] = speak(vocabulary, toolName, item[key]);
      return next;
    });
    out = { ...(out ?? record), results };
  }
  return out ?? result;
}

/**
 * `tool` speaking `vocabulary`: the same tool (name, declaration, annotations) whose failures are
 * ToolErrors with the message in the profile's words (code and details kept) and whose result's
 * `note` is too. Anything thrown that is not a tool failure (a cancellation's reason, a host's
 * TypeError) passes unchanged. Text results (the content a tool returns) are never rewritten.
 */
export function speakingTool<A, R>(tool: ExecuteTool<A, R>, vocabulary: Vocabulary): ExecuteTool<A, R> {
  const inner = tool.execute;
  return {
    ...tool,
    execute: async (args: A, ctx: ToolContext): Promise<R> => {
      let result: R;
      try {
        result = await inner.call(tool, args, ctx);
      } catch (error) {
        if (!(error instanceof ToolError) && !isToolError(error)) throw error;
        const failure = toToolError(error);
        const message = speak(vocabulary, tool.name, failure.message);
        throw message === failure.message ? failure : new ToolError(failure.code, message, failure.details);
      }
      return speakResult(vocabulary, tool.name, result) as R;
    },
  };
}

const spoken = new WeakMap<Vocabulary, WeakMap<object, ExecuteTool>>();

/**
 * Each of `tools` speaking `vocabulary` (see {@link speakingTool}). The same tool gives the same
 * wrapped tool every time, so lists built twice still share their tools (`toolProfiles.combine` keeps
 * one of a tool that is in two lists).
 */
export function speakingTools(tools: ExecuteTool[], vocabulary: Vocabulary): ExecuteTool[] {
  let cache = spoken.get(vocabulary);
  if (cache === undefined) {
    cache = new WeakMap();
    spoken.set(vocabulary, cache);
  }
  return tools.map((tool) => {
    const known = cache.get(tool);
    if (known !== undefined) return known;
    const wrapped = speakingTool(tool, vocabulary);
    cache.set(tool, wrapped);
    return wrapped;
  });
}

/** The built-ins' hint on seeing links (list_dir's entry type), which a profile without list_dir words in its own tools. */
const LINKS_SHOWN = /\(list_dir shows links as type "symlink"\)/g;

/** Phrases every profile rewrites first: advice naming two built-ins where a profile has one tool for both, or a parameter the profile's tool sets for the model. */
const SHARED_PHRASES: readonly Phrase[] = [
  [/\bsearch_dir or grep_search\b/g, 'grep_search'],
  [/\bset overwrite to true to replace it, or /g, ''],
  [/ with overwrite\b/g, ''],
  // The time limit of a search is the profile's own (its tools declare no max_time_ms).
  [/, use a simpler pattern, or raise max_time_ms/g, ', or use a simpler pattern'],
];

/**
 * The Anthropic profile's words: its text editor's commands (`view`, `create`, `str_replace`,
 * `insert`) and parameters (`path`, `old_str`, `new_str`, ...); what the editor cannot do (find files,
 * search text, run commands) is advice to use `bash`.
 */
export const ANTHROPIC_VOCABULARY: Vocabulary = {
  profile: 'anthropic',
  phrases: [
    ...SHARED_PHRASES,
    [/ \(or edit_file with an empty old_string\)/g, ''],
    [/\bview_file (the file|the lines around it|it again|it)\b/g, 'view $1'],
    [/\b(?:check the (?:name|path)|check it) with list_dir or find_file\b/g, 'view the parent directory to check the name'],
    [/\bcheck (?:the (?:name|path)|it) with list_dir\b/g, 'view the parent directory to check the name'],
    [/\buse list_dir to see what it holds\b/g, 'view it to list what it holds'],
    [/\buse find_file with a pattern to find the others\b/g, 'use bash (find) to find the others'],
    [/\buse view_file to read it\b/g, 'view it'],
    // A directory view lists names only; ls -l marks each link with its target.
    [LINKS_SHOWN, '(ls -l in bash shows each link as name -> target)'],
  ],
  tools: {
    view_file: 'view',
    create_file: 'create',
    edit_file: 'str_replace',
    list_dir: 'view',
    find_file: 'bash (find)',
    grep_search: 'bash (grep)',
    search_dir: 'bash (grep)',
    run_command: 'bash',
  },
  params: { '*': { file_path: 'path', dir_path: 'path', old_string: 'old_str', new_string: 'new_str' } },
};

const GEMINI_GREP_PARAMS = { max_results: 'total_max_matches', exclude: 'exclude_pattern', context_lines: 'context' };

/**
 * The Gemini profile's words: Gemini CLI's tool names (`read_file`, `write_file`, `replace`, `glob`,
 * `list_directory`, `grep_search`, `run_shell_command`) and each tool's own parameters
 * (`allow_multiple`, `total_max_matches`, `exclude_pattern`, `respect_git_ignore`, ...).
 */
export const GEMINI_VOCABULARY: Vocabulary = {
  profile: 'gemini',
  phrases: [
    ...SHARED_PHRASES,
    [/\bview_file (the file|the lines around it|it again)\b/g, 'read $1 with read_file'],
    // glob shows every match up to its fixed cap; it has no parameter to raise it.
    [/\(max_results is (\d+)\): raise max_results \(at most \d+\), or /g, '(glob shows at most $1): ', ['glob']],
    [/\(max_results is (\d+)\): /g, '(glob shows at most $1): ', ['glob']],
    [/, or use output_mode "count" for the number of matching lines per file/g, ', or set names_only to list only the matching files'],
    [/\boutput_mode "files_with_matches"/g, 'names_only'],
    [/\binclude_ignored\b(?: (?:to|is) true)?/g, 'respect_git_ignore false'],
    // run_shell_command runs nothing in the background (is_background is refused): a server is started and used within one command.
    [new RegExp(LEFT_RUNNING_ADVICE_FOREGROUND.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), leftRunningAdviceWithoutBackground('run_shell_command'), ['run_shell_command']],
  ],
  tools: {
    view_file: 'read_file',
    create_file: 'write_file',
    edit_file: 'replace',
    list_dir: 'list_directory',
    find_file: 'glob',
    search_dir: 'grep_search',
    run_command: 'run_shell_command',
  },
  params: {
    replace: { replace_all: 'allow_multiple' },
    grep_search: GEMINI_GREP_PARAMS,
    search_file_content: GEMINI_GREP_PARAMS,
    run_shell_command: { cwd: 'dir_path' },
  },
};

/**
 * The OpenAI profile's words: its two tools, `apply_patch` (every change to a file) and `shell`
 * (reading, listing and searching, with the usual commands).
 */
export const OPENAI_VOCABULARY: Vocabulary = {
  profile: 'openai',
  phrases: [
    ...SHARED_PHRASES,
    [/\bview_file (the file|the lines around it|it again|it)\b/g, 'read $1 with shell (cat, sed -n)'],
    // Plain ls prints names only; ls -l marks each link with its target.
    [LINKS_SHOWN, '(ls -l in shell shows each link as name -> target)'],
  ],
  tools: {
    view_file: 'shell (cat, sed -n)',
    create_file: 'apply_patch (*** Add File)',
    edit_file: 'apply_patch',
    list_dir: 'shell (ls)',
    find_file: 'shell (rg --files)',
    grep_search: 'shell (rg)',
    search_dir: 'shell (rg)',
    run_command: 'shell',
  },
  params: { '*': { file_path: 'path' } },
};
