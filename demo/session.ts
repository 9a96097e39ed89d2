// A scripted agent session: the tool calls a model made while exploring and editing a project, recorded
// as steps. Like a model, each step may use what the earlier ones returned (which file to open, which
// line to edit), so the script works on whatever folder is loaded.
import type { ToolCall, ToolCallResult } from 'toolhost';

/** Results so far, by step id (the successful `result` values). */
export type SessionResults = Record<string, unknown>;

export interface SessionStep {
  id: string;
  /** What the "model" says it is doing. */
  thought: string;
  call(previous: SessionResults): ToolCall;
}

interface GrepMatch {
  file_path: string;
  line_number: number;
  line: string;
}

const MARKER = '// Reviewed in the toolhost playground';

/** A line of `content` that occurs exactly once and is worth anchoring an edit on. */
function uniqueLine(content: string): string | undefined {
  return content.split('\n').find((line) => line.trim().length > 8 && content.split(line).length === 2);
}

function grepFirstFile(previous: SessionResults): string {
  const grep = previous.grep as { matches?: GrepMatch[] } | undefined;
  const found = previous.find as { files?: string[] } | undefined;
  return grep?.matches?.[0]?.file_path ?? found?.files?.[0] ?? 'README.md';
}

export const SESSION: readonly SessionStep[] = [
  { id: 'list', thought: 'Look at the top of the project.', call: () => ({ id: 'list', name: 'list_dir', args: { dir_path: '.' } }) },
  {
    id: 'find',
    thought: 'Find the TypeScript sources.',
    call: () => ({ id: 'find', name: 'find_file', args: { pattern: '*.ts', max_results: 200 } }),
  },
  {
    id: 'grep',
    thought: 'Where are functions exported?',
    call: () => ({ id: 'grep', name: 'grep_search', args: { pattern: '^export (async )?function \\w+', max_results: 20 } }),
  },
  {
    id: 'view',
    thought: 'Open the first file that exports a function.',
    call: (previous) => ({ id: 'view', name: 'view_file', args: { file_path: grepFirstFile(previous) } }),
  },
  {
    id: 'edit',
    thought: 'Mark the file as reviewed, above a line that occurs once.',
    call: (previous) => {
      const view = previous.view as { file_path?: string; content?: string } | undefined;
      const line = uniqueLine(view?.content ?? '') ?? '';
      return { id: 'edit', name: 'edit_file', args: { file_path: view?.file_path ?? grepFirstFile(previous), old_string: line, new_string: `${MARKER}\n${line}` } };
    },
  },
  {
    id: 'create',
    thought: 'Write down what was found.',
    call: (previous) => {
      const find = previous.find as { total?: number } | undefined;
      const grep = previous.grep as { total_matches?: number } | undefined;
      const edit = previous.edit as { file_path?: string } | undefined;
      const content = [
        '# Playground notes',
        '',
        `- TypeScript files: ${find?.total ?? 0}`,
        `- exported functions found: ${grep?.total_matches ?? 0}`,
        `- reviewed: ${edit?.file_path ?? '(none)'}`,
        '',
      ].join('\n');
      return { id: 'create', name: 'create_file', args: { file_path: 'PLAYGROUND_NOTES.md', content, overwrite: true } };
    },
  },
  {
    id: 'remember',
    thought: 'Keep the reviewed file in this conversation’s memory.',
    call: (previous) => ({
      id: 'remember',
      name: 'save_memory',
      args: { fact: `reviewed ${(previous.edit as { file_path?: string } | undefined)?.file_path ?? 'nothing'}` },
    }),
  },
  { id: 'test', thought: 'Try to run the tests (no shell in a browser).', call: () => ({ id: 'test', name: 'run_command', args: { command: 'npm test' } }) },
  { id: 'search', thought: 'Look up the docs online (no search in a browser).', call: () => ({ id: 'search', name: 'web_search', args: { query: 'ZenFS IndexedDB backend' } }) },
  {
    id: 'finish',
    thought: 'Done.',
    call: (previous) => ({
      id: 'finish',
      name: 'finish',
      args: { result: `Reviewed ${(previous.edit as { file_path?: string } | undefined)?.file_path ?? 'nothing'} and wrote PLAYGROUND_NOTES.md.` },
    }),
  },
];

/** One played step. */
export interface PlayedStep {
  id: string;
  call: ToolCall;
  outcome: ToolCallResult;
  ms: number;
}
