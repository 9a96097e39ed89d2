// Runs every bench/*.bench.mjs module, prints each figure beside its anchor measured in the same run
// (with the ratio), and writes docs/benchmarks.md with the machine, versions and date. Names given
// (`npm run bench -- gemini unicode`) run only the modules whose file names hold them and replace
// their sections of docs/benchmarks.md, keeping the others.
// Each module runs in a process of its own (this file with `--child <module> <rows file>`), so one
// module's heap, threads and JIT state never weigh on another's figures (peak RSS among them).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, tmpdir, totalmem, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const rootDir = join(here, '..');

if (process.argv[2] === '--child') {
  const [, , , name, out] = process.argv;
  const { default: run } = await import(pathToFileURL(join(here, name)).href);
  writeFileSync(out, JSON.stringify(await run()));
  process.exit(0);
}

const only = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  // Microbenchmarks first: a browser bench leaves Chromium processes winding down for a while.
  .sort((a, b) => Number(/web|demo/.test(a)) - Number(/web|demo/.test(b)) || a.localeCompare(b));

const lock = JSON.parse(readFileSync(join(rootDir, 'package-lock.json'), 'utf8'));
const version = (name) => lock.packages?.[`node_modules/${name}`]?.version ?? 'n/a';
const fmt = (n) => (typeof n !== 'number' || Number.isNaN(n) ? '—' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3));

/** Runs one module in a child process (same Node flags) and returns its rows. */
function runModule(name) {
  const dir = mkdtempSync(join(tmpdir(), 'toolhost-bench-'));
  const out = join(dir, 'rows.json');
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', name, out], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`${name} failed (exit ${child.status ?? child.signal})`);
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const sections = [];
for (const name of modules) {
  console.log(`\n## ${name}`);
  const rows = runModule(name);
  for (const row of rows) {
    row.ratio = typeof row.anchorValue === "number" && row.anchorValue > 0 ? row.value / row.anchorValue : NaN;
    console.log(
      `${row.figure}: ${fmt(row.value)} ${row.unit}  |  ${row.anchor ?? 'no anchor'}: ${fmt(row.anchorValue)} ${row.unit}  |  ratio ${fmt(row.ratio)}x` +
        (row.target ? `  |  target ${row.target}` : '') +
        (row.note ? `  |  ${row.note}` : ''),
    );
  }
  sections.push({ name, rows });
}

const cpu = cpus();
const lines = [
  '# Benchmarks',
  '',
  `Written by \`npm run bench\` on ${new Date().toISOString()}. Every figure is measured next to its anchor in the same run;`,
  'the ratio is figure / anchor. These machines are noisy: compare ratios, not absolute numbers, and re-run side by side.',
  '',
  `- machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${platform()} ${release()}`,
  `- node ${process.version}; @zenfs/core ${version('@zenfs/core')}, ajv ${version('ajv')}, tinybench ${version('tinybench')}, fast-glob ${version('fast-glob')}`,
  '',
];
const when = new Date().toISOString();
/** One module's section of docs/benchmarks.md, with the date and Node it was measured on. */
function sectionText({ name, rows }) {
  const out = [`## ${name.replace(/\.bench\.mjs$/, '')}`, '', `Measured ${when} on node ${process.version}.`, '', '| figure | value | anchor | anchor value | ratio | target | note |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const r of rows) {
    out.push(`| ${r.figure} | ${fmt(r.value)} ${r.unit} | ${r.anchor ?? '—'} | ${r.anchorValue === undefined ? '—' : `${fmt(r.anchorValue)} ${r.unit}`} | ${fmt(r.ratio)}x | ${r.target ?? ''} | ${r.note ?? ''} |`);
  }
  out.push('');
  return out.join('\n');
}

// A run of some modules (`npm run bench -- gemini`) replaces their sections and keeps the others'.
const file = join(rootDir, 'docs', 'benchmarks.md');
const kept = new Map();
if (only.length > 0) {
  let previous = '';
  try {
    previous = readFileSync(file, 'utf8');
  } catch {
    // No earlier file: this run's sections alone.
  }
  // Sections of a full run carry no date of their own: they take the file's.
  const fileDate = /on (\S+)\. Every figure/.exec(previous)?.[1];
  for (const part of previous.split(/^(?=## )/m).slice(1)) {
    const heading = part.slice(0, part.indexOf('\n'));
    const body = /^Measured /m.test(part) || !fileDate ? part : part.replace(heading + '\n', `${heading}\n\nMeasured ${fileDate}.\n`);
    kept.set(heading.slice(3).trim(), body.trimEnd() + '\n');
  }
}
for (const section of sections) kept.set(section.name.replace(/\.bench\.mjs$/, ''), sectionText(section));
if (only.length > 0) lines[2] = `Written by \`npm run bench\` (the sections below give when each was measured; this run: ${only.join(', ')}, ${when}). Every figure is measured next to its anchor in the same run;`;
lines.push(...[...kept.keys()].sort().map((key) => kept.get(key)));
mkdirSync(join(rootDir, 'docs'), { recursive: true });
writeFileSync(file, lines.join('\n'));
console.log('\nwrote docs/benchmarks.md');
