import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript5';
import { describe, expect, it } from 'vitest';

/** Longest function, method, accessor or arrow allowed in product code, in lines (first to last line of the node). */
const MAX_LINES = 150;

const ROOT = join(import.meta.dirname, '..');

/** What the package ships (package.json "files" and "exports": dist is built from these). */
const PRODUCT_DIRS = ['src', 'web', 'node', 'bridges', 'lazy', 'bin'];

/** Directories that hold generated code (validators compiled from the schemas), not written by hand. */
const GENERATED = new Set(['src/tools/generated']);

function productFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return GENERATED.has(relative(ROOT, path)) || name === 'node_modules' ? [] : productFiles(path);
    const isSource = /\.(ts|mts|js|mjs)$/.test(name) && !/\.d\.ts$/.test(name);
    const isTest = /\.(test|spec)\.ts$/.test(name);
    const isBundle = /\.min\.js$/.test(name);
    return isSource && !isTest && !isBundle ? [path] : [];
  });
}

/** The name a reader sees for `node`: its own name, or the variable, property or class member it is assigned to. */
function functionName(node: ts.SignatureDeclaration, sourceFile: ts.SourceFile): string {
  if (node.name) return node.name.getText(sourceFile);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(sourceFile);
  return `<anonymous:${sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1}>`;
}

interface LongFunction {
  key: string;
  lines: number;
  at: string;
}

/** Every function-like node in `text` with a body longer than `max` lines. */
function longFunctions(path: string, text: string, max: number): LongFunction[] {
  const sourceFile = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const last = sourceFile.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > max) found.push({ key: `${path}#${functionName(node, sourceFile)}`, lines, at: `${path}:${first + 1}` });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

function scanProduct(): LongFunction[] {
  return PRODUCT_DIRS.flatMap((dir) => productFiles(join(ROOT, dir))).flatMap((file) => longFunctions(relative(ROOT, file).split('\\').join('/'), readFileSync(file, 'utf8'), MAX_LINES));
}

describe('function length', () => {
  it('measures functions, methods, accessors and arrows, nested ones included, by their lines', () => {
    const body = (n: number): string => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const sample = [
      `export function outer() {\n${body(3)}\n  const inner = () => {\n${body(4)}\n  };\n}`,
      `class Store {\n  get size() {\n${body(5)}\n    return 0;\n  }\n  method() {\n${body(2)}\n  }\n}`,
      `const f = function () {\n${body(6)}\n};`,
    ].join('\n');
    const found = longFunctions('sample.ts', sample, 4);
    expect(found.map(({ key, lines }) => [key, lines])).toEqual([
      ['sample.ts#outer', 11],
      ['sample.ts#inner', 6],
      ['sample.ts#size', 8],
      ['sample.ts#f', 8],
    ]);
  });

  it(`has no product function over ${MAX_LINES} lines`, () => {
    const offenders = scanProduct().map(({ at, key, lines }) => `${at} ${key.split('#')[1]}: ${lines} lines`);
    expect(offenders).toEqual([]);
  });
});
