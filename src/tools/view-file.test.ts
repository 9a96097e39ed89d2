import { describe, expect, it } from 'vitest';
import { fingerprintBytes } from '../core/file-cache.js';
import { createMemoryPlatform } from '../platform/memory.js';
import { ToolRunner, type ToolCallFailure, type ToolCallResult } from '../runner.js';
import { defineTool } from '../core/tool.js';
import type { FsPromises, Platform } from '../core/types.js';
import { VIEW_MAX_FILE_BYTES, viewFileTool, type ViewFileBinaryResult, type ViewFileTextResult } from './view-file.js';
import { writeOutside } from '../../test/support/outside.js';
import { stopwatch } from '../../test/support/starvation.js';
import { jpeg as craftedJpeg, png, PNG_SIGNATURE, webpVp8 } from '../../test/support/images.js';
import { encodeBase64 } from '../fs/mime.js';

const PNG_1X1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const fromBase64 = (b64: string): Uint8Array => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

function setup(files: Record<string, string | Uint8Array> = {}): { platform: Platform; runner: ToolRunner } {
  const platform = createMemoryPlatform({ files });
  return { platform, runner: new ToolRunner({ platform, tools: [viewFileTool] }) };
}

async function view(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallResult> {
  const [result] = await runner.processToolCalls([{ id: 'v', name: 'view_file', args }]);
  return result as ToolCallResult;
}

async function viewText(runner: ToolRunner, args: Record<string, unknown>): Promise<ViewFileTextResult> {
  return (await runner.execute('view_file', args)) as ViewFileTextResult;
}

async function viewError(runner: ToolRunner, args: Record<string, unknown>): Promise<ToolCallFailure> {
  const result = await view(runner, args);
  expect(result).toHaveProperty('code');
  return result as ToolCallFailure;
}

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('view_file', () => {
  it('pins its model-facing schema', () => {
    expect(viewFileTool.name).toBe('view_file');
    expect(viewFileTool.annotations?.readOnlyHint).toBe(true);
    expect(typeof viewFileTool.execute).toBe('function');
    expect(viewFileTool.inputSchema).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "end_line": {
            "description": "Last line to show, 1-based and inclusive (default: start_line + 1999). At most 2000 lines are shown per call.",
            "minimum": 1,
            "type": "integer",
          },
          "file_path": {
            "description": "The file to read: an absolute workspace path (e.g. /workspace/src/index.ts) or a path relative to the working directory.",
            "type": "string",
          },
          "start_line": {
            "description": "First line to show, 1-based (default 1). Use the next_start_line of a previous truncated result to continue reading.",
            "minimum": 1,
            "type": "integer",
          },
        },
        "required": [
          "file_path",
        ],
        "type": "object",
      }
    `);
  });

  it('shows the first 2000 lines by default and says which start_line continues', async () => {
    const { runner } = setup({ 'big.txt': numbered(5000) });
    const result = await viewText(runner, { file_path: 'big.txt' });
    expect(result.file_path).toBe('/workspace/big.txt');
    expect(result.start_line).toBe(1);
    expect(result.end_line).toBe(2000);
    expect(result.total_lines).toBe(5000);
    expect(result.truncated).toBe(true);
    expect(result.next_start_line).toBe(2001);
    expect(result.note).toContain('start_line 2001');
    expect(result.line_ending).toBe('lf');
    const lines = result.content.split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe('line 1');
    expect(lines[1999]).toBe('line 2000');

    const next = await viewText(runner, { file_path: 'big.txt', start_line: 2001 });
    expect(next.start_line).toBe(2001);
    expect(next.end_line).toBe(4000);
    expect(next.next_start_line).toBe(4001);
    const last = await viewText(runner, { file_path: 'big.txt', start_line: 4001 });
    expect(last.end_line).toBe(5000);
    expect(last.truncated).toBe(false);
    expect(last).not.toHaveProperty('next_start_line');
    expect(last.content.split('\n').at(-1)).toBe('line 5000');
  });

  it('shows exactly start_line..end_line, inclusive', async () => {
    const { runner } = setup({ 'f.txt': numbered(10) });
    const result = await viewText(runner, { file_path: 'f.txt', start_line: 3, end_line: 5 });
    expect(result).toEqual({
      file_path: '/workspace/f.txt',
      content: 'line 3\nline 4\nline 5',
      start_line: 3,
      end_line: 5,
      total_lines: 10,
      truncated: true,
      line_ending: 'lf',
      next_start_line: 6,
      note: 'Showing lines 3-5 of 10. To read more, call view_file with start_line 6.',
    });
    const tail = await viewText(runner, { file_path: 'f.txt', start_line: 9, end_line: 50 });
    expect(tail.content).toBe('line 9\nline 10');
    expect(tail.end_line).toBe(10);
    expect(tail.truncated).toBe(false);
  });

  it('accepts line numbers sent as strings', async () => {
    const { runner } = setup({ 'f.txt': numbered(10) });
    const result = await viewText(runner, { file_path: 'f.txt', start_line: '2', end_line: '2' });
    expect(result.content).toBe('line 2');
  });

  it('caps an explicit window at 2000 lines', async () => {
    const { runner } = setup({ 'big.txt': numbered(3000) });
    const result = await viewText(runner, { file_path: 'big.txt', start_line: 1, end_line: 3000 });
    expect(result.end_line).toBe(2000);
    expect(result.next_start_line).toBe(2001);
  });

  it('ends the window early when the content would pass 500,000 characters', async () => {
    // 300 lines of 1999 characters: 2000 with the joining newline, so 250 lines fit.
    const { runner } = setup({ 'wide.txt': Array.from({ length: 300 }, () => 'w'.repeat(1999)).join('\n') });
    const result = await viewText(runner, { file_path: 'wide.txt' });
    expect(result.end_line).toBe(250);
    expect(result.content.length).toBe(250 * 2000 - 1);
    expect(result.truncated).toBe(true);
    expect(result.next_start_line).toBe(251);
    expect(result.note).toContain('capped at 500000 characters');
    const rest = await viewText(runner, { file_path: 'wide.txt', start_line: 251 });
    expect(rest.end_line).toBe(300);
    expect(rest.truncated).toBe(false);
  });

  it('returns invalid_arguments for a start_line past the end', async () => {
    const { runner } = setup({ 'f.txt': numbered(10) });
    const error = await viewError(runner, { file_path: 'f.txt', start_line: 11 });
    expect(error.code).toBe('invalid_arguments');
    expect(error.error).toContain('start_line 11 is past the end');
    expect(error.error).toContain('10 lines');
  });

  it('returns invalid_arguments for an end_line before start_line, and for a zero line', async () => {
    const { runner } = setup({ 'f.txt': numbered(10) });
    const error = await viewError(runner, { file_path: 'f.txt', start_line: 5, end_line: 4 });
    expect(error.code).toBe('invalid_arguments');
    expect(error.error).toContain('end_line 4 is before start_line 5');
    expect((await viewError(runner, { file_path: 'f.txt', start_line: 0 })).code).toBe('invalid_arguments');
    expect((await viewError(runner, { file_path: 'f.txt', extra: 1 })).code).toBe('invalid_arguments');
  });

  it('cuts a 10,000-character line at 2000 with the exact count', async () => {
    const { runner } = setup({ 'long.txt': 'short\n' + 'x'.repeat(10_000) + '\nend\n' });
    const result = await viewText(runner, { file_path: 'long.txt' });
    const lines = result.content.split('\n');
    expect(lines[1]).toBe('x'.repeat(2000) + '… [8000 characters cut]');
    expect(lines[0]).toBe('short');
    expect(lines[2]).toBe('end');
    expect(result.lines_cut).toBe(1);
    expect(result.truncated).toBe(false);
    expect(result.note).toContain('1 line was longer than 2000 characters');
  });

  it('never splits an emoji at the cut point and counts cut characters in code points', async () => {
    // 1999 ASCII + 😀 (2 UTF-16 units, at 1999-2000) + 100 ASCII: the pair straddles the 2000 limit.
    const line = 'a'.repeat(1999) + '😀' + 'b'.repeat(100);
    const { runner } = setup({ 'emoji.txt': line });
    const result = await viewText(runner, { file_path: 'emoji.txt' });
    expect(result.content).toBe('a'.repeat(1999) + '… [101 characters cut]');
    expect(result.content).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // An emoji that fits entirely before the limit is kept whole.
    const fits = 'a'.repeat(1998) + '😀' + 'b'.repeat(10);
    const { runner: r2 } = setup({ 'fits.txt': fits });
    expect((await viewText(r2, { file_path: 'fits.txt' })).content).toBe('a'.repeat(1998) + '😀… [10 characters cut]');
  });

  it('makes no phantom last line, with or without a trailing newline', async () => {
    const { runner } = setup({ 'no-eol.txt': 'a\nb', 'eol.txt': 'a\nb\n', 'blank-end.txt': 'a\nb\n\n' });
    const noEol = await viewText(runner, { file_path: 'no-eol.txt' });
    expect(noEol.total_lines).toBe(2);
    expect(noEol.content).toBe('a\nb');
    const eol = await viewText(runner, { file_path: 'eol.txt' });
    expect(eol.total_lines).toBe(2);
    expect(eol.content).toBe('a\nb');
    expect(eol.end_line).toBe(2);
    const blank = await viewText(runner, { file_path: 'blank-end.txt' });
    expect(blank.total_lines).toBe(3);
    expect(blank.content).toBe('a\nb\n');
  });

  it('hides a UTF-8 BOM', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('héllo\nworld\n')]);
    const { runner } = setup({ 'bom.txt': bytes });
    const result = await viewText(runner, { file_path: 'bom.txt' });
    expect(result.content).toBe('héllo\nworld');
    expect(result.content.charCodeAt(0)).toBe(0x68);
  });

  it('reports CRLF, CR and mixed line endings and shows lines without them', async () => {
    const { runner } = setup({ 'crlf.txt': 'a\r\nb\r\n', 'cr.txt': 'a\rb\r', 'mixed.txt': 'a\r\nb\nc', 'one.txt': 'single' });
    const crlf = await viewText(runner, { file_path: 'crlf.txt' });
    expect(crlf.line_ending).toBe('crlf');
    expect(crlf.content).toBe('a\nb');
    expect(crlf.total_lines).toBe(2);
    const cr = await viewText(runner, { file_path: 'cr.txt' });
    expect(cr.line_ending).toBe('cr');
    expect(cr.content).toBe('a\nb');
    expect((await viewText(runner, { file_path: 'mixed.txt' })).line_ending).toBe('mixed');
    expect((await viewText(runner, { file_path: 'one.txt' })).line_ending).toBe('none');
  });

  it('shows an empty file as 0 lines', async () => {
    const { runner } = setup({ 'empty.txt': '' });
    expect(await viewText(runner, { file_path: 'empty.txt' })).toEqual({
      file_path: '/workspace/empty.txt',
      content: '',
      start_line: 1,
      end_line: 0,
      total_lines: 0,
      truncated: false,
      line_ending: 'none',
    });
    expect((await viewError(runner, { file_path: 'empty.txt', start_line: 2 })).code).toBe('invalid_arguments');
  });

  it('returns is_a_directory for a directory and not_found for a missing file', async () => {
    const { runner } = setup({ 'dir/a.txt': 'a' });
    const dir = await viewError(runner, { file_path: 'dir' });
    expect(dir.code).toBe('is_a_directory');
    expect(dir.error).toContain('list_dir');
    const missing = await viewError(runner, { file_path: 'nope.txt' });
    expect(missing.code).toBe('not_found');
    expect(missing.error).toContain('/workspace/nope.txt');
    expect((await viewError(runner, { file_path: 'dir/a.txt/x' })).code).toBe('not_a_directory');
  });

  it('describes a binary file (NUL byte) without content', async () => {
    const { runner } = setup({ 'data.bin': new Uint8Array([0x61, 0x00, 0x62, 0x63]) });
    expect(await runner.execute('view_file', { file_path: 'data.bin' })).toEqual({
      file_path: '/workspace/data.bin',
      binary: true,
      size: 4,
      mime_type: 'application/octet-stream',
    });
  });

  it('treats invalid UTF-8 as binary', async () => {
    const { runner } = setup({ 'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const result = (await runner.execute('view_file', { file_path: 'latin1.txt' })) as ViewFileBinaryResult;
    expect(result).toEqual({ file_path: '/workspace/latin1.txt', binary: true, size: 5, mime_type: 'application/octet-stream' });
    expect(result).not.toHaveProperty('content');
  });

  it('returns png and jpeg images as base64', async () => {
    const png = fromBase64(PNG_1X1_BASE64);
    const jpeg = craftedJpeg(2, 2);
    const gif = new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000');
    const { runner } = setup({ 'pixel.png': png, 'photo (1).jpg': jpeg, 'anim.gif': gif });
    expect(await runner.execute('view_file', { file_path: 'pixel.png' })).toEqual({
      file_path: '/workspace/pixel.png',
      binary: true,
      size: 70,
      mime_type: 'image/png',
      data_base64: PNG_1X1_BASE64,
    });
    expect(await runner.execute('view_file', { file_path: 'photo (1).jpg' })).toEqual({
      file_path: '/workspace/photo (1).jpg',
      binary: true,
      size: jpeg.length,
      mime_type: 'image/jpeg',
      data_base64: encodeBase64(jpeg),
    });
    expect(await runner.execute('view_file', { file_path: 'anim.gif' })).toMatchObject({
      mime_type: 'image/gif',
      data_base64: 'R0lGODlhAQABAAAAAA==',
    });
  });

  it('sends no data for a file that only starts like an image: a truncated PNG, a huge header, a .txt with PNG magic', async () => {
    const trunc = new Uint8Array([...PNG_SIGNATURE, 0, 0]);
    const huge = png(100_000, 100_000);
    const magicText = new Uint8Array([...PNG_SIGNATURE, ...new TextEncoder().encode('plain words, and more of them, past where an IHDR would end\n')]);
    const { runner } = setup({ 'trunc.png': trunc, 'huge.png': huge, 'notes.txt': magicText, 'cut.jpg': craftedJpeg(4, 4).subarray(0, 24), 'ok.webp': webpVp8(8, 8) });
    expect(await runner.execute('view_file', { file_path: 'trunc.png' })).toEqual({
      file_path: '/workspace/trunc.png',
      binary: true,
      size: 10,
      mime_type: 'image/png',
      note:
        'The file starts like a PNG image, but its data is not included, as a model would refuse it: it is truncated: the file ends inside its IHDR header chunk (10 bytes). ' +
        'If it should be an image, it is damaged or cut short: recreate or re-export it; otherwise it is binary data that cannot be shown.',
    });
    expect(await runner.execute('view_file', { file_path: 'huge.png' })).toEqual({
      file_path: '/workspace/huge.png',
      binary: true,
      size: huge.length,
      mime_type: 'image/png',
      note: "The image's data is not included: 100000×100000 px is larger than the 8000 px per side models take. Make a copy scaled down to at most 8000 px per side and view that.",
    });
    const text = (await runner.execute('view_file', { file_path: 'notes.txt' })) as ViewFileBinaryResult;
    expect(text).not.toHaveProperty('data_base64');
    expect(text.note).toMatch(/^The file starts like a PNG image, but its data is not included, as a model would refuse it: it is not a valid PNG: /);
    const cut = (await runner.execute('view_file', { file_path: 'cut.jpg' })) as ViewFileBinaryResult;
    expect([cut.mime_type, cut.data_base64, cut.note]).toEqual(['image/jpeg', undefined, expect.stringContaining('it is truncated: the file ends inside its frame (SOF) segment')]);
    expect(await runner.execute('view_file', { file_path: 'ok.webp' })).toMatchObject({ mime_type: 'image/webp', data_base64: encodeBase64(webpVp8(8, 8)) });
  });

  it('leaves out the data of an image over 5 MiB', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(fromBase64(PNG_1X1_BASE64));
    const { runner } = setup({ 'big.png': big });
    const result = (await runner.execute('view_file', { file_path: 'big.png' })) as ViewFileBinaryResult;
    expect(result.mime_type).toBe('image/png');
    expect(result.size).toBe(5 * 1024 * 1024 + 1);
    expect(result).not.toHaveProperty('data_base64');
    expect(result.note).toContain('larger than');
  });

  it('records the SHA-256 of the bytes it read in the file cache', async () => {
    const { runner, platform } = setup({ 'a.txt': 'hello\n' });
    let seen: string | undefined;
    await runner.register(
      defineTool({
        name: 'peek_cache',
        description: 'test helper',
        parameters: { type: 'object' },
        callWithContext: async (_args, ctx) => {
          seen = ctx.fileCache.get('/workspace/a.txt');
          return null;
        },
      }),
    );
    await runner.execute('view_file', { file_path: 'a.txt' });
    await runner.execute('peek_cache', {});
    expect(seen).toBe(await fingerprintBytes(await platform.fs.readFile('/workspace/a.txt')));
  });

  describe('paths', () => {
    it('gives the same result for relative and absolute paths', async () => {
      const { runner } = setup({ 'src/a.ts': 'x\n' });
      const relative = await viewText(runner, { file_path: 'src/a.ts' });
      const absolute = await viewText(runner, { file_path: '/workspace/src/a.ts' });
      const dotted = await viewText(runner, { file_path: './src/../src/a.ts' });
      expect(relative).toEqual(absolute);
      expect(dotted).toEqual(absolute);
      expect(absolute.file_path).toBe('/workspace/src/a.ts');
    });

    it('resolves relative paths against the runner cwd', async () => {
      const platform = createMemoryPlatform({ files: { 'pkg/a.txt': 'in pkg\n' } });
      const runner = new ToolRunner({ platform, tools: [viewFileTool], cwd: '/workspace/pkg' });
      expect((await viewText(runner, { file_path: 'a.txt' })).content).toBe('in pkg');
    });

    it('reads names with spaces, unicode and parentheses', async () => {
      const { runner } = setup({ 'my docs/résumé (final) 日本.md': '# hi\n' });
      const result = await viewText(runner, { file_path: 'my docs/résumé (final) 日本.md' });
      expect(result.content).toBe('# hi');
      expect(result.file_path).toBe('/workspace/my docs/résumé (final) 日本.md');
    });

    it('returns outside_workspace for .. that leaves the workspace and for absolute paths outside', async () => {
      const { runner, platform } = setup({ 'a.txt': 'a' });
      await writeOutside(platform.fs, { '/outside/secret.txt': 'secret' });
      for (const file_path of ['../outside/secret.txt', '/outside/secret.txt', 'sub/../../outside/secret.txt', '/etc/passwd']) {
        const error = await viewError(runner, { file_path });
        expect(error.code).toBe('outside_workspace');
        expect(error.error).toContain('/workspace');
      }
    });

    it('returns outside_workspace for a symlink that leads out of the workspace', async () => {
      const { runner, platform } = setup({ 'a.txt': 'a' });
      await writeOutside(platform.fs, { '/outside/secret.txt': 'secret' });
      await platform.fs.symlink('/outside', '/workspace/out');
      await platform.fs.symlink('/etc', '/workspace/etc-link');
      await platform.fs.symlink('../outside/secret.txt', '/workspace/rel-secret');
      for (const file_path of ['out/secret.txt', 'etc-link/passwd', 'rel-secret']) {
        expect((await viewError(runner, { file_path })).code).toBe('outside_workspace');
      }
    });

    it('says which symbolic link leads out, and where, when the path given is inside', async () => {
      const { runner, platform } = setup({ 'a.txt': 'a' });
      await writeOutside(platform.fs, { '/outside/secret.txt': 'secret' });
      await platform.fs.symlink('/outside/secret.txt', '/workspace/abs_out');
      await platform.fs.symlink('/outside', '/workspace/out');
      await platform.fs.symlink('../outside/secret.txt', '/workspace/rel-secret');
      expect(await viewError(runner, { file_path: 'abs_out' })).toMatchObject({
        code: 'outside_workspace',
        error:
          'file_path "abs_out" is a symbolic link (/workspace/abs_out) that leads outside the workspace, to /outside/secret.txt; ' +
          'links out of the workspace are not followed. Use a path inside /workspace that does not go through this link ' +
          '(list_dir shows links as type "symlink")',
      });
      expect((await viewError(runner, { file_path: 'out/secret.txt' })).error).toBe(
        'file_path "out/secret.txt" goes through /workspace/out, a symbolic link that leads outside the workspace, to /outside; ' +
          'links out of the workspace are not followed. Use a path inside /workspace that does not go through this link ' +
          '(list_dir shows links as type "symlink")',
      );
      // A relative target is shown resolved.
      expect((await viewError(runner, { file_path: 'rel-secret' })).error).toContain(
        'is a symbolic link (/workspace/rel-secret) that leads outside the workspace, to /outside/secret.txt;',
      );
    });

    it('cuts a long path in its messages to 200 characters', async () => {
      const { runner } = setup({ 'a.txt': 'a' });
      // 1 MB: past any filesystem's limit.
      expect(await viewError(runner, { file_path: 'p'.repeat(1_000_000) })).toMatchObject({
        code: 'invalid_arguments',
        error: `file_path "${'p'.repeat(200)}…" (999800 more characters) is longer than the filesystem allows (a name or the whole path); use shorter names`,
      });
      // Within the limits (5 names of 99 characters), but still cut in the message.
      const deep = Array.from({ length: 5 }, (_, i) => String(i).repeat(99)).join('/');
      expect(await viewError(runner, { file_path: deep })).toMatchObject({
        code: 'not_found',
        error:
          `file_path "${deep.slice(0, 200)}…" (299 more characters) does not exist ` +
          `(/workspace/${deep.slice(0, 189)}… (310 more characters)); check the name with list_dir or find_file`,
      });
      // (Within the limits: a longer path answers invalid_arguments before anything else.)
      expect(await viewError(runner, { file_path: '/etc/' + 'q'.repeat(250) })).toMatchObject({
        code: 'outside_workspace',
        error: `file_path "/etc/${'q'.repeat(195)}…" (55 more characters) is outside the workspace; use a path inside /workspace`,
      });
    });

    it('fails fast on a symlink loop instead of hanging', async () => {
      const { runner, platform } = setup({ 'a.txt': 'a' });
      await platform.fs.symlink('/workspace/loop2', '/workspace/loop1');
      await platform.fs.symlink('/workspace/loop1', '/workspace/loop2');
      await platform.fs.symlink('self', '/workspace/self');
      const started = stopwatch();
      const error = await viewError(runner, { file_path: 'loop1' });
      expect(error.code).toBe('execution_failed');
      expect(error.error).toContain('symbolic links');
      expect((await viewError(runner, { file_path: 'self/x.txt' })).code).toBe('execution_failed');
      expect(started.net()).toBeLessThan(5000);
      // The runner stays usable.
      expect((await viewText(runner, { file_path: 'a.txt' })).content).toBe('a');
    });

    it('follows a symlink inside the workspace and reports the real path', async () => {
      const { runner, platform } = setup({ 'real/target.txt': 'target\n' });
      await platform.fs.symlink('real/target.txt', '/workspace/link.txt');
      await platform.fs.symlink('/workspace/real', '/workspace/dirlink');
      const viaFile = await viewText(runner, { file_path: 'link.txt' });
      expect(viaFile.content).toBe('target');
      expect(viaFile.file_path).toBe('/workspace/real/target.txt');
      expect((await viewText(runner, { file_path: 'dirlink/target.txt' })).file_path).toBe('/workspace/real/target.txt');
    });

    it('reads dot-files like any other file', async () => {
      const { runner } = setup({ '.env': 'A=1\n' });
      expect((await viewText(runner, { file_path: '.env' })).content).toBe('A=1');
    });
  });
});

/**
 * The memory platform with `gen` files as the pseudo-files of /proc and /sys are on Node: `stat` says
 * 0 bytes, a whole-file read gives none (it stops at that size), a ranged read gives the content.
 */
function pseudoFiles(gen: Record<string, Uint8Array>, files: Record<string, string | Uint8Array> = {}, ranged = true): ToolRunner {
  const platform = createMemoryPlatform({ files });
  const real = platform.fs;
  const paths = new Map(Object.entries(gen).map(([name, bytes]) => [`/workspace/${name}`, bytes]));
  const fs: FsPromises = {
    ...real,
    stat: async (p) => {
      const bytes = paths.get(p);
      if (bytes === undefined) return real.stat(p);
      return { ...(await real.stat('/workspace')), size: 0, isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false };
    },
    readFile: async (p) => (paths.has(p) ? new Uint8Array(0) : real.readFile(p)),
  };
  if (ranged) {
    fs.readRange = async (p, position, length) => {
      const bytes = paths.get(p);
      return bytes === undefined ? (real.readRange as NonNullable<FsPromises['readRange']>)(p, position, length) : bytes.slice(position, position + length);
    };
  } else {
    delete fs.readRange;
  }
  return new ToolRunner({ platform: { ...platform, fs }, tools: [viewFileTool] });
}

describe('view_file of a file whose size the filesystem reports as 0', () => {
  const STATUS = new TextEncoder().encode('Name:\tcrafted\nState:\tR (running)\nVmRSS:\t  4242 kB\n');

  it('reads on to the end and shows the content, with a note that it is generated when read', async () => {
    const runner = pseudoFiles({ status: STATUS }, { 'empty.txt': '' });
    expect(await runner.execute('view_file', { file_path: 'status' })).toEqual({
      file_path: '/workspace/status',
      content: 'Name:\tcrafted\nState:\tR (running)\nVmRSS:\t  4242 kB',
      start_line: 1,
      end_line: 3,
      total_lines: 3,
      truncated: false,
      line_ending: 'lf',
      note: `The filesystem reports a size of 0 bytes for /workspace/status, so its content is generated when it is read (as for the files of /proc and /sys) and may differ from one read to the next; ${STATUS.length} bytes were read.`,
    });
    expect(await runner.execute('view_file', { file_path: 'empty.txt' })).toEqual({
      file_path: '/workspace/empty.txt',
      content: '',
      start_line: 1,
      end_line: 0,
      total_lines: 0,
      truncated: false,
      line_ending: 'none',
    });
  });

  it('a generated binary file keeps the note; one over 32 MiB is cut there, and the note says so', async () => {
    const big = new Uint8Array(VIEW_MAX_FILE_BYTES + 10).fill(0x61);
    const runner = pseudoFiles({ 'blob': new Uint8Array([0, 1, 2, 3]), 'huge': big });
    const blob = (await runner.execute('view_file', { file_path: 'blob' })) as ViewFileBinaryResult;
    expect([blob.binary, blob.size, blob.note]).toEqual([true, 4, expect.stringContaining('reports a size of 0 bytes for /workspace/blob')]);
    const huge = (await runner.execute('view_file', { file_path: 'huge' })) as ViewFileTextResult;
    expect([huge.total_lines, huge.content.length, huge.lines_cut]).toEqual([1, 2000 + ' [33552432 characters cut]'.length + 1, 1]);
    expect(huge.note).toContain(`only its first ${VIEW_MAX_FILE_BYTES} bytes were read.`);
  });

  it('where the fs has no ranged reads, the file reads as the fs gives it', async () => {
    const runner = pseudoFiles({ status: STATUS }, {}, false);
    expect(await runner.execute('view_file', { file_path: 'status' })).toMatchObject({ content: '', total_lines: 0 });
  });
});
