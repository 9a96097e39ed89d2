// edit_file when its no_match hint's module cannot be loaded (in browsers: an app that does not serve
// lazy/edit-hint.min.js): the loader fails as a browser's import() of a missing file does.
import { describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallResult } from '../runner.js';
import { editFileTool } from './edit-file.js';

vi.mock('#lazy', async (original) => ({
  ...(await original<object>()),
  loadEditHint: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/edit-hint.min-x.js')),
}));

describe('edit_file without its hint module', () => {
  it('still answers no_match, with a hint naming the file the app must serve, and writes nothing', async () => {
    const platform = createMemoryPlatform({ files: { 'a.txt': 'fine\n' } });
    const runner = new ToolRunner({ platform, tools: [editFileTool] });
    const [result] = (await runner.processToolCalls([{ id: 'e1', name: 'edit_file', args: { file_path: 'a.txt', old_string: 'fine!', new_string: 'x' } }])) as [ToolCallResult];
    expect(result).toEqual({
      id: 'e1',
      name: 'edit_file',
      code: 'no_match',
      error:
        "old_string was not found in /workspace/a.txt. View the file and copy the text exactly (no closer hint: edit_file's no_match hint could not be loaded: Failed to fetch dynamically imported module: http://127.0.0.1/assets/edit-hint.min-x.js; the app must serve toolhost's lazy/edit-hint.min.js beside the code that loads it).",
    });
    expect(new TextDecoder().decode(await platform.fs.readFile('/workspace/a.txt'))).toBe('fine\n');
  });
});
