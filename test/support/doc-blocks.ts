import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The README's and docs/'s code blocks, for the tests that compile and run them.

/** The repository's root. */
export const REPO = join(import.meta.dirname, '..', '..');

/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository. */
  file: string;
  /** The 1-based line of the block's opening fence. */
  line: number;
  /** The fence's info string (`ts`, `json`, `sh`, ...). */
  lang: string;
  /** The block's text, ending with a newline. */
  code: string;
  /** The last heading above the block (`''` before the first). */
  heading: string;
}

/** README.md and every Markdown file under docs/, relative to the repository, sorted. */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(rel);
      return entry.name.endsWith('.md') ? [rel] : [];
    });
  return ['README.md', ...walk('docs').sort()];
}

/** The fenced code blocks of `file` (relative to the repository), in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && lines[i] !== '```'; i += 1) body.push(lines[i] as string);
    blocks.push({ file, line: start + 1, lang: fence[1] ?? '', code: `${body.join('\n')}\n`, heading });
  }
  return blocks;
}

/** The package's entries (`toolhost`, `toolhost/node`, ...) → their `.d.ts` in the build, from package.json's exports. */
export function entryTypes(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { exports: Record<string, { types?: string } | string> };
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(manifest.exports)) {
    if (typeof value === 'string' || !value.types) continue;
    out[`toolhost${key.slice(1)}`] = join(REPO, value.types);
  }
  return out;
}

/** The package's entries → their TypeScript sources (`toolhost/node` → node/index.ts), for running blocks under vitest. */
export function entrySources(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [entry, types] of Object.entries(entryTypes())) out[entry] = types.replace(join(REPO, 'dist'), REPO).replace(/\.d\.ts$/, '.ts');
  return out;
}

/** The ```ts block of `file` under the heading `heading` (the `index`-th there). */
export function tsBlock(file: string, heading: string, index = 0): CodeBlock {
  const found = codeBlocks(file).filter((b) => b.lang === 'ts' && b.heading === heading)[index];
  if (!found) throw new Error(`${file} has no ts block under "${heading}"`);
  return found;
}

/**
 * Runs `code` as a module with `toolhost` entries pointing at the sources, `console.log` collected in
 * the module's `logs`, and `epilogue` appended (its exports are returned).
 */
export async function runCode(code: string, epilogue = ''): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(REPO, 'test', '.readme-'));
  try {
    const file = join(dir, 'block.ts');
    let source = code.replace(/console\.log\(/g, '__log(');
    for (const [entry, path] of Object.entries(entrySources())) source = source.replaceAll(`from '${entry}'`, `from ${JSON.stringify(path)}`);
    writeFileSync(file, `export const logs: unknown[][] = [];\nconst __log = (...values: unknown[]) => { logs.push(values); };\n${source}\n${epilogue}\n`);
    return (await import(file)) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
