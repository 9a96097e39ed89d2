import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript5';
import { describe, expect, it } from 'vitest';

// The import graph of the product: every .ts/.js/.d.ts file of the directories the package is built
// from (package.json "exports" point into dist/{src,web,node,bridges}; "files" ships lazy/), tests
// excluded. Every import counts, types included: `import`, `import type`, `export … from`,
// `import x = require()`, dynamic `import('…')` and `typeof import('…')` with a literal specifier.

const ROOT = join(import.meta.dirname, '..');
const PRODUCT_DIRS = ['src', 'web', 'node', 'bridges', 'lazy'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

/**
 * The layers, and what each may import besides itself (the allowed layer map). Every arrow runs down:
 *
 *   lazy ← core ← fs ← search ← platform, tools ← journal ← runner ← remote, agent ← entry ← web, node, bridges
 *
 * `lazy/` (the package's `#lazy` loaders of optional libraries) is the floor: it imports no toolhost
 * source at all. `src/core/` stands on it alone. `platform` and `tools` are siblings (neither imports the
 * other), as are `remote` and `agent`; `journal` (the change journal, which the core's runner takes as
 * a factory, as it takes a platform) diffs with the tools' diff code; `runner` (src/runner.ts) gives the core's runner toolhost's
 * defaults from both. The entries of the top row may use anything in src/; web/ never imports node/
 * or bridges/, while node/ (its CLI serves MCP) and bridges/ (the `toolhost/mcp/node` entry) use each
 * other. The first prefix that matches a file's path names its layer.
 */
const LAYERS: readonly (readonly [layer: string, prefix: string])[] = [
  ['lazy', 'lazy/'],
  ['core', 'src/core/'],
  ['fs', 'src/fs/'],
  ['search', 'src/search/'],
  ['platform', 'src/platform/'],
  ['tools', 'src/tools/'],
  ['journal', 'src/journal/'],
  ['runner', 'src/runner.ts'],
  ['remote', 'src/remote/'],
  ['agent', 'src/agent/'],
  ['entry', 'src/index.ts'],
  ['web', 'web/'],
  ['node', 'node/'],
  ['bridges', 'bridges/'],
];
const SRC_LAYERS = ['lazy', 'core', 'fs', 'search', 'platform', 'tools', 'journal', 'runner', 'remote', 'agent', 'entry'];
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  lazy: [],
  core: ['lazy'],
  fs: ['core', 'lazy'],
  search: ['fs', 'core', 'lazy'],
  platform: ['search', 'fs', 'core', 'lazy'],
  tools: ['search', 'fs', 'core', 'lazy'],
  journal: ['tools', 'search', 'fs', 'core', 'lazy'],
  runner: ['journal', 'platform', 'tools', 'search', 'fs', 'core', 'lazy'],
  remote: ['runner', 'journal', 'platform', 'tools', 'search', 'fs', 'core', 'lazy'],
  agent: ['runner', 'journal', 'platform', 'tools', 'search', 'fs', 'core', 'lazy'],
  entry: SRC_LAYERS,
  web: SRC_LAYERS,
  node: [...SRC_LAYERS, 'bridges'],
  bridges: [...SRC_LAYERS, 'node'],
};

/** Built bundles the lazy loaders import (scripts/build-lazy.mjs writes them; they are not sources). */
const BUILT = /^lazy\/[^/]+\.min\.js$/;
/** What the package's `#lazy` import resolves to (package.json "imports"). */
const LAZY_TARGETS = ['lazy/index.d.ts', 'lazy/browser.js', 'lazy/node.js'];

function productFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return SKIPPED_DIRS.has(name) ? [] : productFiles(path);
    return /\.(ts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [path.split('\\').join('/')] : [];
  });
}

/** Every module specifier `text` imports, types and literal dynamic imports included. */
export function specifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, fileName.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The product files `specifier` (imported by `from`) names; [] for a package; undefined when it names no file. */
function resolve(from: string, specifier: string): string[] | undefined {
  if (specifier === '#lazy') return LAZY_TARGETS;
  if (!specifier.startsWith('.')) return [];
  const base = join(dirname(from), specifier).split('\\').join('/');
  if (BUILT.test(base)) return [];
  const stem = base.replace(/\.(js|mjs)$/, '');
  const candidates = [`${stem}.ts`, `${stem}.d.ts`, base, `${base}.ts`, `${base}/index.ts`];
  const hit = candidates.find((candidate) => existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile());
  return hit === undefined ? undefined : [hit];
}

function layerOf(file: string): string | undefined {
  return LAYERS.find(([, prefix]) => file === prefix || file.startsWith(prefix))?.[0];
}

interface Graph {
  edges: Map<string, string[]>;
  unresolved: string[];
}

function buildGraph(): Graph {
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of PRODUCT_DIRS.flatMap(productFiles)) {
    const targets = new Set<string>();
    for (const specifier of specifiers(file, readFileSync(join(ROOT, file), 'utf8'))) {
      const hit = resolve(file, specifier);
      if (hit === undefined) unresolved.push(`${file} → ${specifier}`);
      else for (const target of hit) if (target !== file) targets.add(target);
    }
    edges.set(file, [...targets]);
  }
  return { edges, unresolved };
}

/** Every cycle's path (`a → b → a`), one per strongly connected component (Tarjan), shortest found by BFS. */
export function cycles(edges: ReadonlyMap<string, readonly string[]>): string[] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return components.map((component) => {
    const members = new Set(component);
    const start = [...component].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i += 1) {
      const node = queue[i]!;
      for (const next of edges.get(node) ?? []) {
        if (next === start) {
          const path = [start];
          for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
          return [...path, start].join(' → ');
        }
        if (members.has(next) && !previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    return component.join(' ↔ ');
  });
}

describe('the import graph', () => {
  const graph = buildGraph();

  it('reads every kind of import, types and literal dynamic imports included', () => {
    const sample = [
      "import a from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "export type * from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      'type G = typeof import("./g.js");',
      "import h = require('./h.js');",
      "const notAnImport = 'import x from \"./no.js\"';",
      "// import z from './comment.js';",
      'const dynamic = await import(name);',
    ].join('\n');
    expect(specifiers('sample.ts', sample)).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js', './g.js', './h.js']);
  });

  it('finds a cycle and names its path', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(cycles(edges)).toEqual(['a → b → c → a']);
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('resolves every relative import of the product to a file', () => {
    expect(graph.edges.size).toBeGreaterThan(150);
    expect(graph.unresolved).toEqual([]);
  });

  it('places every product file in a layer', () => {
    expect([...graph.edges.keys()].filter((file) => layerOf(file) === undefined)).toEqual([]);
  });

  it('keeps src/core at the ground floor: it imports nothing of toolhost outside src/core but the #lazy loaders', () => {
    const outside = [...graph.edges]
      .filter(([file]) => file.startsWith('src/core/'))
      .flatMap(([file, targets]) => targets.filter((target) => !target.startsWith('src/core/') && !LAZY_TARGETS.includes(target)).map((target) => `${file} → ${target}`));
    expect(outside).toEqual([]);
  });

  it('keeps lazy/ free of toolhost source: its modules and types import no file of src/', () => {
    const offenders = [...graph.edges]
      .filter(([file]) => file.startsWith('lazy/'))
      .flatMap(([file, targets]) => targets.filter((target) => !target.startsWith('lazy/')).map((target) => `${file} → ${target}`));
    expect(offenders).toEqual([]);
  });

  it('has no cycle anywhere in the product', () => {
    expect(cycles(graph.edges)).toEqual([]);
  });

  it('has no arrow running up or across the layers: each imports only what its row of the layer map allows', () => {
    const refused = [...graph.edges].flatMap(([file, targets]) => {
      const from = layerOf(file)!;
      return targets
        .filter((target) => layerOf(target) !== from && !MAY_IMPORT[from]!.includes(layerOf(target)!))
        .map((target) => `${file} (${from}) → ${target} (${layerOf(target)})`);
    });
    expect(refused).toEqual([]);
  });

  it('has a row in the layer map for every layer, naming only layers', () => {
    const names = LAYERS.map(([name]) => name);
    expect(Object.keys(MAY_IMPORT).sort()).toEqual([...new Set(names)].sort());
    expect(Object.values(MAY_IMPORT).flat().filter((name) => !names.includes(name))).toEqual([]);
  });

  it('sees the files the layers name', () => {
    const files = [...graph.edges.keys()];
    expect(files).toContain('src/core/runner.ts');
    expect(files).toContain('lazy/index.d.ts');
    expect(files).toContain('bridges/mcp/index.ts');
  });
});
