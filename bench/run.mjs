// Runs every bench/*.bench.mjs module, prints each figure beside its anchor measured in the same run
// (with the ratio), and writes docs/benchmarks.md with the machine, versions and date.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const rootDir = join(here, '..');
const only = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  // Microbenchmarks first: a browser bench leaves Chromium processes winding down for a while.
  .sort((a, b) => Number(/web|demo/.test(a)) - Number(/web|demo/.test(b)) || a.localeCompare(b));

const lock = JSON.parse(readFileSync(join(rootDir, 'package-lock.json'), 'utf8'));
const version = (name) => lock.packages?.[`node_modules/${name}`]?.version ?? 'n/a';
const fmt = (n) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toFixed(3));

const sections = [];
for (const name of modules) {
  const { default: run } = await import(pathToFileURL(join(here, name)).href);
  console.log(`\n## ${name}`);
  const rows = await run();
  for (const row of rows) {
    row.ratio = row.anchorValue > 0 ? row.value / row.anchorValue : NaN;
    console.log(
      `${row.figure}: ${fmt(row.value)} ${row.unit}  |  ${row.anchor}: ${fmt(row.anchorValue)} ${row.unit}  |  ratio ${fmt(row.ratio)}x` +
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
for (const { name, rows } of sections) {
  lines.push(`## ${name.replace(/\.bench\.mjs$/, '')}`, '', '| figure | value | anchor | anchor value | ratio | target | note |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    lines.push(`| ${r.figure} | ${fmt(r.value)} ${r.unit} | ${r.anchor} | ${fmt(r.anchorValue)} ${r.unit} | ${fmt(r.ratio)}x | ${r.target ?? ''} | ${r.note ?? ''} |`);
  }
  lines.push('');
}
if (only.length === 0) {
  mkdirSync(join(rootDir, 'docs'), { recursive: true });
  writeFileSync(join(rootDir, 'docs', 'benchmarks.md'), lines.join('\n'));
  console.log('\nwrote docs/benchmarks.md');
}
