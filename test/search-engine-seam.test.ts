import { describe, expect, it } from 'vitest';
import { BuiltinTools, createMemoryPlatform, ToolRunner, toolProfiles } from '../src/index.js';
import type { Platform, SearchEngine, SearchRequest, SearchResponse } from '../src/index.js';
import { createSearchEngine } from '../src/search/engine.js';
import { searchSourceOf } from '../src/search/engine-source.js';

// The search tools reach the platform through one seam, `Platform.search`: every request they make is
// plain data sent to the platform's engine, whose answer they shape; a platform without an engine gets
// toolhost's default one over its `fs`, with the same answers to the byte.

const FILES = {
  'src/a.ts': 'const x = 1;\n// TODO one\nconst needle = 3;\n// TODO two\n',
  'src/b.ts': 'export const TODO = true;\n',
  'src/deep/c.md': '# todo list\nneedle here\n',
  'docs/readme.md': 'Needle in docs\n',
  '.gitignore': 'dist/\n',
  'dist/out.ts': '// TODO built\n',
  'bin.dat': new Uint8Array([0, 1, 2, 110, 101, 101, 100, 108, 101]),
};

/** The memory platform with its engine replaced by one that records every request, then asks `inner`. */
function recording(inner: SearchEngine | undefined): { platform: Platform; requests: SearchRequest[] } {
  const memory = createMemoryPlatform({ files: FILES });
  const requests: SearchRequest[] = [];
  const delegate = inner ?? (memory.search as SearchEngine);
  const search: SearchEngine = {
    search: (request, ctx) => {
      requests.push(request);
      return delegate.search(request, ctx);
    },
  };
  return { platform: { ...memory, search }, requests };
}

/** The memory platform without an engine: the tools take the default one over `fs`. */
function withoutEngine(): Platform {
  const { search: _search, ...rest } = createMemoryPlatform({ files: FILES });
  return rest;
}

const CALLS: ReadonlyArray<[tool: string, args: Record<string, unknown>]> = [
  ['grep_search', { pattern: 'TODO|needle' }],
  ['grep_search', { pattern: 'needle', case_sensitive: false, output_mode: 'count' }],
  ['grep_search', { pattern: 'n(ee)dle', output_mode: 'files_with_matches', include: '*.{ts,md}', exclude: 'deep/' }],
  ['grep_search', { pattern: 'TODO', fixed_strings: true, context_lines: 1, dir_path: 'src', max_results: 1 }],
  ['search_dir', { query: 'NEEDLE' }],
  ['search_dir', { query: 'todo', dir_path: 'src', include: '*.md' }],
  ['find_file', { pattern: '*.ts' }],
  ['find_file', { pattern: '**/*.md', include_ignored: true, dir_path: 'src' }],
  ['find_file', { pattern: '!*.ts', case_sensitive: true, max_results: 2 }],
];

async function answers(platform: Platform): Promise<unknown[]> {
  const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
  const out: unknown[] = [];
  for (const [tool, args] of CALLS) out.push(await runner.execute(tool, args));
  return out;
}

describe('the search seam (Platform.search)', () => {
  it("sends grep_search's, search_dir's and find_file's requests to the platform's engine, as plain data", async () => {
    const { platform, requests } = recording(undefined);
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    await runner.execute('grep_search', { pattern: 'TODO', include: '*.ts', output_mode: 'count', max_time_ms: 5000 });
    await runner.execute('search_dir', { query: 'needle', dir_path: 'src' });
    await runner.execute('find_file', { pattern: '*.md', include_ignored: true });
    expect(requests).toEqual([
      { kind: 'lines', pattern: 'TODO', literal: false, caseSensitive: true, include: '*.ts', contextLines: 0, outputMode: 'count', maxResults: 100, maxTimeMs: 5000 },
      { kind: 'lines', pattern: 'needle', literal: true, caseSensitive: false, dirPath: 'src', contextLines: 0, outputMode: 'content', maxResults: 100 },
      { kind: 'files', dir: '/workspace', glob: '*.md', caseSensitive: false, includeIgnored: true, includeSymlinks: true },
    ]);
    // Plain data: a copy through JSON is the same request.
    for (const request of requests) expect(JSON.parse(JSON.stringify(request))).toEqual(request);
  });

  it("sends the Gemini profile's grep and glob requests to the platform's engine", async () => {
    const { platform, requests } = recording(undefined);
    const runner = new ToolRunner({ platform, tools: toolProfiles.gemini() });
    await runner.execute('grep_search', { pattern: 'needle' });
    await runner.execute('search_file_content', { pattern: 'TODO' });
    await runner.execute('glob', { pattern: '**/*.ts' });
    // Gemini's grep asks again, with context lines, when it found only a few matches.
    const asked = requests.map((request) => `${request.kind} ${request.kind === 'lines' ? request.pattern : request.glob}`);
    expect([...new Set(asked)]).toEqual(['lines needle', 'lines TODO', 'files **/*.ts']);
    expect(requests.map((request) => [request.kind, request.kind === 'lines' ? request.pattern : request.glob]).slice(0, 1)).toEqual([
      ['lines', 'needle'],
    ]);
  });

  it("answers with what the platform's own engine says, shaped by the tool", async () => {
    const engine: SearchEngine = {
      search: async (request): Promise<SearchResponse> =>
        request.kind === 'lines'
          ? { kind: 'lines', result: { matches: [{ file_path: '/workspace/virtual.txt', line_number: 7, column: 2, line: 'from the engine' }], total_matches: 1, truncated: false, files_searched: 1, binary_files_skipped: 0 } }
          : { kind: 'files', paths: ['/workspace/virtual.txt'], capped: false, stopped: false, directories: 1, skipped: { count: 0, kinds: {} }, ignoreDropped: [] },
    };
    const runner = new ToolRunner({ platform: { ...createMemoryPlatform(), search: engine }, tools: BuiltinTools.all() });
    expect(await runner.execute('grep_search', { pattern: 'anything' })).toEqual({
      matches: [{ file_path: '/workspace/virtual.txt', line_number: 7, column: 2, line: 'from the engine' }],
      total_matches: 1,
      truncated: false,
      files_searched: 1,
      binary_files_skipped: 0,
    });
    expect(await runner.execute('find_file', { pattern: '*.txt' })).toEqual({ files: ['/workspace/virtual.txt'], total: 1, truncated: false });
  });

  it('answers a platform without an engine through the default one over fs, the same to the byte', async () => {
    const own = await answers(createMemoryPlatform({ files: FILES }));
    const viaFs = await answers(withoutEngine());
    expect(JSON.stringify(viaFs)).toBe(JSON.stringify(own));
    const { platform, requests } = recording(createSearchEngine());
    expect(JSON.stringify(await answers(platform))).toBe(JSON.stringify(own));
    expect(requests).toHaveLength(CALLS.length);
  });

  it('answers searches of a platform without an engine run at once as it answers them one by one (each batch read through fs is its own)', async () => {
    const alone = await answers(withoutEngine());
    const platform = withoutEngine();
    const runner = new ToolRunner({ platform, tools: BuiltinTools.all() });
    const together = await Promise.all(CALLS.map(([tool, args]) => runner.execute(tool, args)));
    expect(JSON.stringify(together)).toBe(JSON.stringify(alone));
    // And again, the content cache now holding the files.
    expect(JSON.stringify(await Promise.all(CALLS.map(([tool, args]) => runner.execute(tool, args))))).toBe(JSON.stringify(alone));
  });

  it("keeps the tools' errors, in the calling profile's words, whichever engine answers", async () => {
    const errorOf = async (platform: Platform, tool: string, args: Record<string, unknown>): Promise<unknown> => {
      const runner = new ToolRunner({ platform, tools: toolProfiles.gemini() });
      const [result] = await runner.processToolCalls([{ name: tool, args }]);
      return result;
    };
    for (const [tool, args] of [
      ['grep_search', { pattern: 'x', dir_path: 'missing' }],
      ['grep_search', { pattern: 'x', include: '../out/*' }],
      ['glob', { pattern: '*.ts', dir_path: 'missing' }],
    ] as const) {
      const own = await errorOf(createMemoryPlatform({ files: FILES }), tool, args);
      expect(own).toMatchObject({ code: expect.any(String) });
      expect(await errorOf(withoutEngine(), tool, args)).toEqual(own);
    }
  });

  it("refuses, as the host's mistake (a TypeError), an engine that answers another kind or is not an engine", async () => {
    const wrong: SearchEngine = { search: async () => ({ kind: 'files', paths: [], capped: false, stopped: false, directories: 0, skipped: { count: 0, kinds: {} }, ignoreDropped: [] }) };
    const runner = new ToolRunner({ platform: { ...createMemoryPlatform(), search: wrong }, tools: BuiltinTools.all() });
    // The runner reports what a tool throws that is no ToolError as execution_failed, with its message.
    const [answered] = await runner.processToolCalls([{ name: 'grep_search', args: { pattern: 'x' } }]);
    expect(answered).toMatchObject({ code: 'execution_failed', error: expect.stringMatching(/^the platform's search engine answered a 'lines' request with kind files/) });
    // Not an engine at all: the runner refuses the platform when it is made, before any call.
    for (const search of [{}, 42, null, 'abc', async () => undefined]) {
      expect(() => new ToolRunner({ platform: { ...createMemoryPlatform(), search: search as unknown as SearchEngine }, tools: BuiltinTools.all() })).toThrow(
        new RegExp(`^ToolRunner: platform\\.search must be a search engine, an object with a search\\(request, ctx\\) method, not `),
      );
    }
  });

  it("refuses, as the host's mistake, an engine's answer of the right kind but the wrong shape, or with paths outside the workspace", async () => {
    const good = { matches: [{ file_path: '/workspace/a.ts', line_number: 1, column: 1, line: 'x' }], total_matches: 1, truncated: false, files_searched: 1, binary_files_skipped: 0 };
    const errorWith = async (result: unknown, args: Record<string, unknown> = { pattern: 'x' }): Promise<unknown> => {
      const engine = { search: async () => ({ kind: 'lines', result }) } as unknown as SearchEngine;
      const [answer] = await new ToolRunner({ platform: { ...createMemoryPlatform(), search: engine }, tools: BuiltinTools.all() }).processToolCalls([{ name: 'grep_search', args }]);
      return answer;
    };
    const cases: Array<[unknown, RegExp, Record<string, unknown>?]> = [
      [undefined, /with result undefined, not an object/],
      [{}, /result\.total_matches undefined, not a whole number/],
      [{ ...good, matches: 'x' }, /result\.matches "x", not an array \(output_mode content\)/],
      [{ ...good, total_matches: 'many' }, /result\.total_matches "many", not a whole number/],
      [{ ...good, matches: [{ ...good.matches[0], file_path: 42 }] }, /result\.matches\[0\]\.file_path 42, not a path/],
      [{ ...good, matches: [{ ...good.matches[0], file_path: '/etc/passwd' }] }, /result\.matches\[0\]\.file_path "\/etc\/passwd", not an absolute path of an entry inside the workspace \/workspace/],
      [{ ...good, matches: [{ ...good.matches[0], file_path: '/workspace/../etc/passwd' }] }, /not an absolute path of an entry inside the workspace/],
      ...['/workspace', '/workspace/', '/workspace//a.ts', '/workspace/a.ts/', '/workspace/a\0b'].map((path): [unknown, RegExp] => [{ ...good, matches: [{ ...good.matches[0], file_path: path }] }, /result\.matches\[0\]\.file_path .*, not an absolute path of an entry inside the workspace \/workspace/]),
      [{ ...good, total_matches: Number.NaN }, /result\.total_matches NaN, not a whole number/],
      [{ ...good, total_matches: 1n }, /result\.total_matches 1n, not a whole number/],
      [{ ...good, matches: [{ ...good.matches[0], line_number: 1e300 }] }, /result\.matches\[0\]\.line_number 1e\+300, not a whole number of 1 or more/],
      [{ ...good, note: 'x'.repeat(5000) }, /result\.note .*, not a string of at most 2000 characters/],
      [{ ...good, files: ['/workspace/b.ts', '/workspace/a.ts'], total_files: 2 }, /result\.files not sorted by path, each once/, { pattern: 'x', output_mode: 'files_with_matches' }],
      [{ ...good, files: ['/workspace/a.ts'], total_files: 0 }, /result\.total_files 0, not a whole number of 1 or more/, { pattern: 'x', output_mode: 'files_with_matches' }],
      [{ ...good, files: ['relative.txt'], total_files: 1 }, /result\.files\[0\] "relative\.txt", not an absolute path of an entry inside the workspace/, { pattern: 'x', output_mode: 'files_with_matches' }],
      [{ ...good, counts: [{ file_path: '/workspace/a.ts', count: -1 }], total_files: 1 }, /result\.counts\[0\]\.count -1, not a whole number/, { pattern: 'x', output_mode: 'count' }],
    ];
    for (const [result, message, args] of cases) {
      const answer = await errorWith(result, args);
      expect(answer, message.source).toMatchObject({ code: 'execution_failed', error: expect.stringMatching(/^the platform's search engine answered a 'lines' request with /) });
      expect((answer as { error: string }).error, message.source).toMatch(message);
      expect((answer as { error: string }).error).toMatch(/; fix its search\(\) \(Platform\.search\)$/);
    }
    expect(await errorWith(good)).toMatchObject({ result: good });
    // What the engine added reaches no one: only the fields of the answer are copied.
    expect(await errorWith({ ...good, extra: 'secret', matches: [{ ...good.matches[0], extra: Number.NaN }] })).toEqual({ name: 'grep_search', result: good });

    const files = (paths: unknown) => ({ search: async () => ({ kind: 'files', paths, capped: false, stopped: false, directories: 1, skipped: { count: 0, kinds: {} }, ignoreDropped: [] }) }) as unknown as SearchEngine;
    const find = async (engine: SearchEngine): Promise<unknown> => (await new ToolRunner({ platform: { ...createMemoryPlatform(), search: engine }, tools: BuiltinTools.all() }).processToolCalls([{ name: 'find_file', args: { pattern: '*' } }]))[0];
    expect(await find(files(['/etc/passwd']))).toMatchObject({ code: 'execution_failed', error: expect.stringMatching(/^the platform's search engine answered a 'files' request with paths\[0\] "\/etc\/passwd", not an absolute path of an entry inside the folder searched \/workspace;/) });
    const findWith = (extra: Record<string, unknown>) => find({ search: async () => ({ kind: 'files', paths: ['/workspace/a'], capped: false, stopped: false, directories: 1, skipped: { count: 0, kinds: {} }, ignoreDropped: [], ...extra }) } as unknown as SearchEngine);
    expect(await findWith({ skipped: { count: 1, kinds: {}, first: 42 } })).toMatchObject({ error: expect.stringMatching(/with skipped\.first 42, not a path/) });
    expect(await findWith({ skipped: { count: 1, kinds: { too_long: Number.NaN } } })).toMatchObject({ error: expect.stringMatching(/with skipped\.kinds\.too_long NaN/) });
    expect(await findWith({ ignoreDropped: [null] })).toMatchObject({ error: expect.stringMatching(/with ignoreDropped\[0\] null, not an object/) });
    expect(await findWith({ ignoreDropped: [{ file: '/etc/passwd', pastCap: 1, globstars: 0, tooLong: 0 }] })).toMatchObject({ error: expect.stringMatching(/ignoreDropped\[0\]\.file "\/etc\/passwd"/) });
    expect(await findWith({ stopped: true })).toMatchObject({ error: expect.stringMatching(/with stopped true, but the request had no deadline/) });
    expect(await findWith({ directories: 1n })).toMatchObject({ error: expect.stringMatching(/with directories 1n, not a whole number/) });
    // Sorted, each once, as the tools list them.
    expect(await find(files(['/workspace/b', '/workspace/a', '/workspace/a']))).toMatchObject({ result: { files: ['/workspace/a', '/workspace/b'], total: 2 } });
  });

  it("holds an engine's answer to the folder or file dir_path names, not only to the workspace", async () => {
    const files = { 'src/a.ts': 'x\n', 'src/deep/b.ts': 'x\n', 'other/c.ts': 'x\n', 'top.ts': 'x\n' };
    const answerNaming = async (paths: string[], args: Record<string, unknown>): Promise<unknown> => {
      const counts = paths.map((file_path) => ({ file_path, count: 1 }));
      const engine = { search: async () => ({ kind: 'lines', result: { counts, total_matches: paths.length, truncated: false, files_searched: paths.length, binary_files_skipped: 0, total_files: paths.length } }) } as unknown as SearchEngine;
      const [answer] = await new ToolRunner({ platform: { ...createMemoryPlatform({ files }), search: engine }, tools: BuiltinTools.all() }).processToolCalls([{ name: 'grep_search', args: { pattern: 'x', output_mode: 'count', ...args } }]);
      return answer;
    };
    // Inside the folder searched (relative or absolute dir_path): passed on.
    expect(await answerNaming(['/workspace/src/a.ts', '/workspace/src/deep/b.ts'], { dir_path: 'src' })).toMatchObject({ result: { total_files: 2 } });
    expect(await answerNaming(['/workspace/src/deep/b.ts'], { dir_path: '/workspace/src/deep' })).toMatchObject({ result: { total_files: 1 } });
    // In the workspace but outside the folder searched: the host's mistake, said so.
    expect(await answerNaming(['/workspace/other/c.ts'], { dir_path: 'src' })).toMatchObject({
      code: 'execution_failed',
      error: expect.stringMatching(/with result\.counts\[0\]\.file_path "\/workspace\/other\/c\.ts", not an absolute path of an entry inside the folder searched \/workspace\/src;/),
    });
    expect(await answerNaming(['/workspace/src'], { dir_path: 'src' })).toMatchObject({ code: 'execution_failed' });
    // A dir_path naming a file: that file alone.
    expect(await answerNaming(['/workspace/top.ts'], { dir_path: 'top.ts' })).toMatchObject({ result: { total_files: 1 } });
    expect(await answerNaming(['/workspace/src/a.ts'], { dir_path: 'top.ts' })).toMatchObject({
      error: expect.stringMatching(/with result\.counts\[0\]\.file_path "\/workspace\/src\/a\.ts", not the file searched \/workspace\/top\.ts;/),
    });
    // No dir_path: the workspace (the call's working directory).
    expect(await answerNaming(['/workspace/other/c.ts', '/workspace/top.ts'], {})).toMatchObject({ result: { total_files: 2 } });
  });

  it('has no searchSource on Platform: the source is the engine\'s', () => {
    const memory = createMemoryPlatform();
    // @ts-expect-error the side port is gone from Platform
    expect(memory.searchSource).toBeUndefined();
    expect(Object.keys(memory)).not.toContain('searchSource');
    expect(searchSourceOf(memory)).toBeDefined();
    expect(searchSourceOf({ search: createSearchEngine() })).toBeUndefined();
    expect(searchSourceOf({})).toBeUndefined();
  });
});
