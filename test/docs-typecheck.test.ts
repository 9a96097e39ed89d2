// Every ```ts block of the README and docs/ compiles under strict TypeScript against the built
// package's types, as a user's project would see them (the entries through package.json's exports).
// One tsc run for all blocks: each block is a module of its own, and the few names a fragment uses
// without defining (a `runner` made earlier on the page, an API key) are declared once, below.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from './support/build.js';
import { REPO, codeBlocks, docFiles, entryTypes, type CodeBlock } from './support/doc-blocks.js';

/**
 * What the fragments take from the text around them. Each is a global that a block's own
 * declaration of the same name shadows (blocks are modules), so a block that defines `runner` uses its own.
 */
const AMBIENT = `
declare const runner: import('toolhost').ToolRunner;
declare const platform: import('toolhost').Platform;
declare const model: import('toolhost/agent').Model & import('ai').LanguageModel;
declare const weather: import('toolhost').Tool<{ city: string }>;
declare const signal: AbortSignal;
declare const TOKEN: string;
declare const GEMINI_KEY: string;
declare const ANTHROPIC_KEY: string;
`;

const OUT = join(REPO, 'node_modules', '.cache', 'docs-typecheck');

/** The blocks to compile, each with the file name it gets. */
function tsBlocks(): Array<CodeBlock & { name: string }> {
  return docFiles().flatMap((file) =>
    codeBlocks(file)
      .filter((b) => b.lang === 'ts')
      .map((b) => ({ ...b, name: `${file.replace(/[/.]/g, '_')}_L${b.line}.ts` })),
  );
}

describe('TypeScript blocks of the README and docs/', () => {
  it('finds the blocks: the quick starts, the tour and the bridges', () => {
    const where = tsBlocks().map((b) => `${b.file} ${b.heading}`);
    expect(where).toEqual(expect.arrayContaining(['README.md Quick start: a Node host', 'README.md Quick start: a browser worker', 'README.md Quick start: the Vercel AI SDK', 'docs/runner.md A short tour', 'docs/ai-sdk.md Vercel AI SDK (`toolhost/ai-sdk`)']));
  });

  it('compiles every block with tsc --strict against the built types', () => {
    ensureBuilt();
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    const blocks = tsBlocks();
    for (const b of blocks) writeFileSync(join(OUT, b.name), `${b.code}\nexport {};\n`);
    writeFileSync(join(OUT, 'ambient.d.ts'), AMBIENT);
    const paths = Object.fromEntries(Object.entries(entryTypes()).map(([entry, types]) => [entry, [types]]));
    writeFileSync(
      join(OUT, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          lib: ['es2023', 'dom', 'dom.iterable'],
          types: ['node'],
          typeRoots: [join(REPO, 'node_modules', '@types')],
          skipLibCheck: true,
          paths,
        },
        files: ['ambient.d.ts', ...blocks.map((b) => b.name)],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(OUT, 'tsconfig.json'), '--pretty', 'false'], { cwd: OUT, encoding: 'utf8' });
    // Each error as `<markdown file>:<line>: message`, the line the block's line in the Markdown file.
    const byName = new Map(blocks.map((b) => [b.name, b]));
    const errors = `${tsc.stdout}${tsc.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const m = /^(\S+?\.ts)\((\d+),\d+\): (.*)$/.exec(line);
        const b = m ? byName.get(m[1] as string) : undefined;
        return b && m ? `${b.file}:${b.line + Number(m[2])}: ${m[3]}` : line;
      });
    expect(errors).toEqual([]);
    expect(tsc.status).toBe(0);
  }, 240_000);
});
