import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', 'src');
// Code uses, not prose: an import specifier `'node:…'`, a member access on a platform global, or require().
const FORBIDDEN = [
  /['"`]node:/,
  /\b(window|document|process|self)\s*(\?\.|\.|\[)/,
  /\bindexedDB\b/,
  /\bglobalThis\.(process|window|document)\b/,
  /\brequire\s*\(/,
  /\b(Buffer|__dirname)\b/,
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** Lines of `text` that use a platform-specific API; comments may name these APIs, code may not. */
function platformUses(text: string): string[] {
  const offenders: string[] = [];
  text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    .split('\n')
    .forEach((line, i) => {
      if (FORBIDDEN.some((pattern) => pattern.test(line))) offenders.push(`${i + 1}: ${line.trim()}`);
    });
  return offenders;
}

describe('src/', () => {
  it('flags platform APIs in code but not in comments', () => {
    const sample = [
      "import { readFile } from 'node:fs/promises';",
      'const home = process.env.HOME;',
      'const db = indexedDB.open("x");',
      'window.alert(1);',
      "const fs = require('fs');",
      '/** the subset of `node:fs/promises` used; the process group is killed */',
      '// window.alert is not called here',
      "const description = 'runs in its own process group';",
    ].join('\n');
    expect(platformUses(sample).map((l) => Number(l.split(':')[0]))).toEqual([1, 2, 3, 4, 5]);
  });

  it('uses web-standard APIs only: no node:, window, document, indexedDB, process or require', () => {
    const offenders = files(SRC).flatMap((file) => platformUses(readFileSync(file, 'utf8')).map((l) => `${file.slice(SRC.length + 1)}:${l}`));
    expect(offenders).toEqual([]);
  });

  it('never imports from web/ or node/', () => {
    const offenders = files(SRC).filter((file) => /from ['"](\.\.\/)+(web|node)\//.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
