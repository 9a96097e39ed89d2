#!/usr/bin/env node
/**
 * Generates src/tools/generated/validators.js (+ validators.d.ts): ajv standalone validators for every
 * built-in tool schema (BuiltinTools.all() and the web_search fallback), default-exported as a record
 * `{ [validatorKey(schema)]: validate }`, and a record `checks` `{ [validatorKey(schema)]: validatorCheck(schema) }`
 * that confirms a key hit. src/core/validation.ts consults them before compiling,
 * so built-in tools validate where eval is forbidden (a Content-Security-Policy without 'unsafe-eval').
 * Each schema is compiled without its annotations (descriptions, titles, examples, defaults), which ajv
 * does not read: the bundle carries neither the schema text nor its descriptions.
 *
 * Usage: `npm run gen:validators` (or `node scripts/build-validators.mjs`). The output is committed; `npm run build` uses it as it is.
 * The schemas are read from the TypeScript sources through Vite's module runner, so no build is needed;
 * `--from-dist` reads them from dist/src/tools/*.js instead (after `tsc -p tsconfig.build.json`).
 * `--check` writes nothing and exits 1 when the committed files differ from what would be generated.
 *
 * test/validators-fresh.test.ts regenerates the text in-process with {@link generateValidatorsModule}
 * and fails with "run npm run gen:validators" when the committed file is stale.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';

const standaloneCode = /** @type {typeof import('ajv/dist/standalone/index.js').default} */ (
  /** @type {any} */ (standaloneCodeModule).default ?? standaloneCodeModule
);

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the generated module lives, relative to the repository root. */
export const VALIDATORS_JS = 'src/tools/generated/validators.js';
/** Its declaration file, relative to the repository root. */
export const VALIDATORS_DTS = 'src/tools/generated/validators.d.ts';

/**
 * What the generator takes from src/core/validation.ts, so there is one copy of each: the ajv options
 * every toolhost validator is compiled with, the key the runtime looks a built-in validator up by, and
 * the annotation stripping that key is computed over.
 * @typedef {{
 *   AJV_OPTIONS: Readonly<Record<string, unknown>>;
 *   validatorKey: (schema: any) => string;
 *   validatorCheck: (schema: any) => string;
 *   stripAnnotations: (schema: any) => object;
 * }} ValidationCore
 */

/**
 * The distinct input schemas (`inputSchema`, JSON Schema) of `tools`, in order, as `[key, schema]`
 * pairs: `key` is `core.validatorKey(schema)`, `schema` the schema without its annotations (what is
 * compiled). Schemas that differ only in annotations
 * share one entry; two that differ in anything else but share a key throw (a hash collision).
 * @param {ReadonlyArray<{ name: string; inputSchema: unknown }>} tools
 * @param {ValidationCore} core
 * @returns {Array<[string, object]>}
 */
export function collectSchemas(tools, core) {
  /** @type {Map<string, { schema: object; text: string; tool: string }>} */
  const seen = new Map();
  for (const tool of tools) {
    const schema = tool.inputSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new Error(`tool ${tool.name}: inputSchema is not a JSON Schema object`);
    }
    const key = core.validatorKey(schema);
    const stripped = core.stripAnnotations(schema);
    const text = JSON.stringify(stripped);
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, { schema: stripped, text, tool: tool.name });
    else if (earlier.text !== text) {
      throw new Error(`tools ${earlier.tool} and ${tool.name}: different schemas share the validator key ${key}; lengthen validatorKey in src/core/validation.ts`);
    }
  }
  return [...seen].map(([key, { schema }]) => [key, schema]);
}

const RUNTIME_REQUIRE = /const (\w+) = require\("(ajv\/dist\/runtime\/[\w/-]+)"\)(\.default)?;/g;

/**
 * The text of src/tools/generated/validators.js for `tools`: ajv standalone code (ESM) of each schema
 * without its annotations, with every `require("ajv/dist/runtime/...")` rewritten into an ESM import,
 * a default export `{ [validatorKey(schema)]: validate }` and an export `checks`
 * `{ [validatorKey(schema)]: validatorCheck(schema) }`. Deterministic: the same tools give the
 * same text.
 * @param {ReadonlyArray<{ name: string; inputSchema: unknown }>} tools
 * @param {ValidationCore} core
 * @returns {string}
 */
export function generateValidatorsModule(tools, core) {
  const schemas = collectSchemas(tools, core);
  const ajv = new Ajv({ ...core.AJV_OPTIONS, code: { source: true, esm: true } });
  /** @type {Record<string, string>} */
  const exportsMap = {};
  schemas.forEach(([, schema], i) => {
    ajv.addSchema(schema, `toolhost:schema${i}`);
    exportsMap[`builtinValidator${i}`] = `toolhost:schema${i}`;
  });
  let code = standaloneCode(ajv, exportsMap);
  /** @type {string[]} */
  const imports = [];
  code = code.replace(RUNTIME_REQUIRE, (_match, name, path, dotDefault) => {
    const moduleName = `${name}_module`;
    imports.push(`import ${moduleName} from ${JSON.stringify(`${path}.js`)};`);
    // Node gives a CommonJS module's exports object as the default import; bundlers may give `exports.default`.
    return dotDefault ? `const ${name} = ${moduleName}.default ?? ${moduleName};` : `const ${name} = ${moduleName};`;
  });
  if (/\brequire\(/.test(code)) {
    throw new Error('ajv standalone output still holds a require() that could not be rewritten into an import');
  }
  code = code.replace(/^"use strict";/, '');
  const record = schemas.map(([key], i) => `  ${JSON.stringify(key)}: builtinValidator${i},`).join('\n');
  const checks = schemas.map(([key, schema]) => `  ${JSON.stringify(key)}: ${JSON.stringify(core.validatorCheck(schema))},`).join('\n');
  return [
    '// Generated by scripts/build-validators.mjs from the built-in tools\' parameter schemas. Do not edit:',
    '// run `npm run gen:validators` after changing a schema (test/validators-fresh.test.ts checks it).',
    `// ajv ${readAjvVersion()} standalone, AJV_OPTIONS of src/core/validation.ts: ${JSON.stringify(core.AJV_OPTIONS)}.`,
    '/* eslint-disable */',
    ...imports,
    code,
    '',
    '/** Precompiled validators keyed by validatorKey(schema) (see src/core/validation.ts). */',
    'export default {',
    record,
    '};',
    '',
    '/** validatorCheck(schema) of each validator, by the same key: a key hit is used only when the check matches too. */',
    'export const checks = {',
    checks,
    '};',
    '',
  ].join('\n');
}

/** The text of src/tools/generated/validators.d.ts (constant). */
export const VALIDATORS_DTS_TEXT = [
  '// Generated by scripts/build-validators.mjs. Do not edit.',
  "import type { ErrorObject } from 'ajv';",
  '',
  '/** An ajv standalone validator: true, or false with `errors` set. */',
  'export type PrecompiledValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };',
  '',
  '/** Precompiled validators of the built-in tool schemas, keyed by `validatorKey(schema)` (src/core/validation.ts). */',
  'declare const validators: Readonly<Record<string, PrecompiledValidator>>;',
  'export default validators;',
  '',
  '/** `validatorCheck(schema)` of each validator, by the same key (src/core/validation.ts): a key hit counts only when it matches. */',
  'export declare const checks: Readonly<Record<string, string>>;',
  '',
].join('\n');

function readAjvVersion() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules/ajv/package.json'), 'utf8'));
  return String(pkg.version);
}

/**
 * Loads src/core/validation.ts (or dist/src/core/validation.js with `fromDist`) for its
 * {@link ValidationCore} parts.
 * @param {{ fromDist?: boolean }} [options]
 * @returns {Promise<ValidationCore>}
 */
export async function loadValidationCore(options = {}) {
  if (options.fromDist) return import(pathToFileURL(join(ROOT, 'dist/src/core/validation.js')).href);
  const { runnerImport } = await import('vite');
  const inline = { configFile: /** @type {false} */ (false), root: ROOT, logLevel: /** @type {'error'} */ ('error') };
  return /** @type {any} */ ((await runnerImport(join(ROOT, 'src/core/validation.ts'), inline)).module);
}

/**
 * Loads the built-in tools (BuiltinTools.all() plus the web_search fallback).
 * @param {{ fromDist?: boolean }} [options]
 * @returns {Promise<Array<{ name: string; inputSchema: unknown }>>}
 */
export async function loadBuiltinTools(options = {}) {
  if (options.fromDist) {
    const tools = await import(pathToFileURL(join(ROOT, 'dist/src/tools/index.js')).href);
    const web = await import(pathToFileURL(join(ROOT, 'dist/src/tools/web-search.js')).href);
    return [...tools.BuiltinTools.all(), web.webSearchFallbackTool];
  }
  const { runnerImport } = await import('vite');
  const inline = { configFile: /** @type {false} */ (false), root: ROOT, logLevel: /** @type {'error'} */ ('error') };
  const tools = await runnerImport(join(ROOT, 'src/tools/index.ts'), inline);
  const web = await runnerImport(join(ROOT, 'src/tools/web-search.ts'), inline);
  return [.../** @type {any} */ (tools.module).BuiltinTools.all(), /** @type {any} */ (web.module).webSearchFallbackTool];
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const jsPath = join(ROOT, VALIDATORS_JS);
  const dtsPath = join(ROOT, VALIDATORS_DTS);
  mkdirSync(dirname(jsPath), { recursive: true });
  // src/core/validation.ts imports the generated module: give a first run something to load.
  if (!existsSync(jsPath)) writeFileSync(jsPath, 'export default {};\nexport const checks = {};\n');
  const tools = await loadBuiltinTools({ fromDist: args.has('--from-dist') });
  const core = await loadValidationCore({ fromDist: args.has('--from-dist') });
  const js = generateValidatorsModule(tools, core);
  const current = { js: readFileSync(jsPath, 'utf8'), dts: existsSync(dtsPath) ? readFileSync(dtsPath, 'utf8') : '' };
  if (args.has('--check')) {
    const fresh = current.js === js && current.dts === VALIDATORS_DTS_TEXT;
    console.log(fresh ? `${VALIDATORS_JS} is up to date` : `${VALIDATORS_JS} is stale: run npm run gen:validators`);
    process.exitCode = fresh ? 0 : 1;
    return;
  }
  if (current.js !== js) writeFileSync(jsPath, js);
  if (current.dts !== VALIDATORS_DTS_TEXT) writeFileSync(dtsPath, VALIDATORS_DTS_TEXT);
  console.log(`${VALIDATORS_JS}: ${collectSchemas(tools, core).length} validators for ${tools.length} tools`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
