import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRunner } from '../src/runner.js';
import type { Platform } from '../src/core/types.js';
import { createMemoryPlatform } from '../src/platform/memory.js';
import { textEditorTool } from '../src/tools/profiles/anthropic.js';
import { applyPatchTool } from '../src/tools/profiles/openai.js';
import { createNodePlatform } from '../node/platform.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-stale-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

let made = 0;
const workspaces: Array<[string, (files: Record<string, string>) => Platform]> = [
  ['memory', (files) => createMemoryPlatform({ files })],
  [
    'node',
    (files) => {
      const root = join(base, `ws${(made += 1)}`);
      mkdirSync(root);
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
      return createNodePlatform({ root });
    },
  ],
];

/** Makes `platform`'s fs run `after` right after its first read of a file named `name`: another writer (an editor, a process that takes no lock) changing the workspace then. */
function afterFirstRead(platform: Platform, name: string, after: () => void | Promise<void>): void {
  const fs = platform.fs;
  const readFile = fs.readFile.bind(fs);
  let done = false;
  fs.readFile = async (path: string) => {
    const bytes = await readFile(path);
    if (!done && path.endsWith(`/${name}`)) {
      done = true;
      await after();
    }
    return bytes;
  };
}

async function text(platform: Platform, name: string): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await platform.fs.readFile(`${platform.root}/${name}`));
  } catch {
    return undefined;
  }
}

describe.each(workspaces)('edits that meet another writer between their read and their write (%s platform)', (_name, make) => {
  const patch = (body: string) => ({ input: `*** Begin Patch\n${body}*** End Patch` });

  it('apply_patch answers stale_file and writes none of the patch when an updated file changes after its read', async () => {
    const platform = make({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    afterFirstRead(platform, 'a.txt', () => platform.fs.writeFile(`${platform.root}/a.txt`, 'alpha, edited elsewhere\n'));
    const runner = new ToolRunner({ platform, tools: [applyPatchTool] });
    const [answer] = await runner.processToolCalls([
      { name: 'apply_patch', args: patch('*** Update File: b.txt\n@@\n-beta\n+BETA\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** Add File: c.txt\n+new\n') },
    ]);
    expect(answer).toEqual({
      name: 'apply_patch',
      code: 'stale_file',
      error: `${platform.root}/a.txt changed while apply_patch was applying the patch; nothing was written. Read it again, then retry the patch`,
    });
    expect([await text(platform, 'a.txt'), await text(platform, 'b.txt'), await text(platform, 'c.txt')]).toEqual(['alpha, edited elsewhere\n', 'beta\n', undefined]);
    await platform.dispose();
  });

  it('apply_patch answers stale_file when a file it adds is created by another writer after its check', async () => {
    const platform = make({ 'a.txt': 'alpha\n' });
    afterFirstRead(platform, 'a.txt', () => platform.fs.writeFile(`${platform.root}/c.txt`, 'theirs\n'));
    const runner = new ToolRunner({ platform, tools: [applyPatchTool] });
    const [answer] = await runner.processToolCalls([{ name: 'apply_patch', args: patch('*** Add File: c.txt\n+mine\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n') }]);
    expect(answer).toEqual({
      name: 'apply_patch',
      code: 'stale_file',
      error: `${platform.root}/c.txt was created while apply_patch was applying the patch; nothing was written. Read it again, then retry the patch`,
    });
    expect([await text(platform, 'a.txt'), await text(platform, 'c.txt')]).toEqual(['alpha\n', 'theirs\n']);
    await platform.dispose();
  });

  it('apply_patch still applies when nothing changed in between', async () => {
    const platform = make({ 'a.txt': 'alpha\n' });
    const runner = new ToolRunner({ platform: platform, tools: [applyPatchTool] });
    const [answer] = await runner.processToolCalls([{ name: 'apply_patch', args: patch('*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n') }]);
    expect(answer).toEqual({
      name: 'apply_patch',
      result: { output: `Success. Updated the following files:\nM ${platform.root}/a.txt\n`, changes: [{ action: 'M', path: `${platform.root}/a.txt` }] },
    });
    expect(await text(platform, 'a.txt')).toBe('ALPHA\n');
    await platform.dispose();
  });

  it("the text editor's insert and str_replace answer stale_file and write nothing when the file changes after their read", async () => {
    const platform = make({ 'a.txt': 'one\ntwo\n' });
    const runner = new ToolRunner({ platform, tools: [textEditorTool()] });
    afterFirstRead(platform, 'a.txt', () => platform.fs.writeFile(`${platform.root}/a.txt`, 'one\ntwo\nthree\n'));
    const [insert] = await runner.processToolCalls([{ name: 'str_replace_based_edit_tool', args: { command: 'insert', path: 'a.txt', insert_line: 1, insert_text: 'mine' } }]);
    expect(insert).toEqual({
      name: 'str_replace_based_edit_tool',
      code: 'stale_file',
      error: `${platform.root}/a.txt changed while insert was editing it; nothing was written. View it again, then retry the insert`,
    });
    expect(await text(platform, 'a.txt')).toBe('one\ntwo\nthree\n');
    afterFirstRead(platform, 'a.txt', () => platform.fs.writeFile(`${platform.root}/a.txt`, 'one\ntwo\nfour\n'));
    const [replace] = await runner.processToolCalls([{ name: 'str_replace_based_edit_tool', args: { command: 'str_replace', path: 'a.txt', old_str: 'two', new_str: 'TWO' } }]);
    expect(replace).toEqual({
      name: 'str_replace_based_edit_tool',
      code: 'stale_file',
      error: `${platform.root}/a.txt changed while str_replace was editing it; nothing was written. View it again, then retry the edit`,
    });
    expect(await text(platform, 'a.txt')).toBe('one\ntwo\nfour\n');
    await platform.dispose();
  });
});
