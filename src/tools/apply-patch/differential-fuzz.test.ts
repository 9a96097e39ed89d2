import { describe, expect, it } from 'vitest';
import { ToolError } from '../../core/errors.js';
import { ToolRunner, type ToolCallResult } from '../../core/runner.js';
import { createMemoryPlatform } from '../../platform/memory.js';
import { refPatch, type RefOutcome } from '../../../test/support/codex-apply-patch-reference.js';
import { seededRandom } from '../../../test/support/random.js';
import { toolProfiles } from '../profiles/index.js';
import { applyChunks, parsePatch } from './index.js';

/**
 * Lines with near twins (trailing / leading whitespace, typographic punctuation, no-break spaces) and
 * repeats, so hunks meet every pass of the matcher, ambiguous positions and the order rule.
 */
const VOCAB = ['alpha', 'beta', 'gamma', '', '  alpha', 'alpha  ', 'x \u2013 y', 'x - y', '\u201Cq\u201D', '"q"', 'a\u00A0b', 'a b', '}', '    return 1;', '\treturn 1;', 'fn main() {'];
/** What a model may write for a line of the file: itself, or a loosened spelling. */
const LOOSEN: Array<(s: string) => string> = [(s) => s, (s) => s, (s) => s, (s) => `${s}  `, (s) => s.trim(), (s) => ` ${s}`, (s) => s.replace(/\u2013/g, '-').replace(/[\u201C\u201D]/g, '"').replace(/\u00A0/g, ' ')];

type Random = () => number;
const int = (random: Random, n: number): number => Math.floor(random() * n);
const pick = <T,>(random: Random, items: readonly T[]): T => items[int(random, items.length)] as T;

function randomFile(random: Random): string[] {
  const lines = Array.from({ length: int(random, 22) }, () => pick(random, VOCAB));
  return lines;
}

/** One random hunk's lines (its `@@` line first, unless `bare`), aimed somewhere in or after `cursor`. */
function randomChunk(random: Random, file: string[], cursor: number, bare: boolean): { lines: string[]; end: number } {
  const n = file.length;
  const mode = int(random, 10);
  const out: string[] = [];
  const added = (): string[] => Array.from({ length: 1 + int(random, 2) }, () => `+${pick(random, ['new', 'NEW line', '', '  added'])}`);
  if (mode === 0 || n === 0) {
    // A pure addition, sometimes under a context header.
    const header = n > 0 && random() < 0.4 ? ` ${LOOSEN[int(random, LOOSEN.length)]!(file[int(random, n)]!)}` : '';
    out.push(`@@${header}`, ...added());
    return { lines: out, end: cursor };
  }
  // Mostly after the cursor; sometimes anywhere (an earlier spot tests the in-order rule).
  const start = mode === 1 ? int(random, n) : Math.min(n - 1, cursor + int(random, 4));
  const width = 1 + int(random, Math.min(4, n - start));
  let header = '';
  if (start > 0 && random() < 0.3) header = ` ${LOOSEN[int(random, LOOSEN.length)]!(file[int(random, start)]!)}`;
  if (!bare || header !== '') out.push(`@@${header}`);
  for (let k = 0; k < width; k += 1) {
    if (random() < 0.25) out.push(...added());
    let text = LOOSEN[int(random, LOOSEN.length)]!(file[start + k]!);
    if (mode === 2 && k === width - 1) text = 'not in the file';
    const removed = random() < 0.4;
    out.push(removed ? `-${text}` : text === '' && random() < 0.5 ? '' : ` ${text}`);
  }
  if (random() < 0.3) out.push(...added());
  if (random() < 0.1) out.push(' ');
  if (start + width === n && random() < 0.5) {
    out.push('*** End of File');
    if (random() < 0.5) out.push('');
  } else if (mode === 3) out.push('*** End of File');
  return { lines: out, end: start + width };
}

function randomPatch(random: Random, file: string[]): string {
  const body: string[] = [];
  let cursor = 0;
  const count = 1 + int(random, 4);
  for (let c = 0; c < count; c += 1) {
    const { lines, end } = randomChunk(random, file, cursor, c === 0 && random() < 0.3);
    body.push(...lines);
    if (random() < 0.15) body.push('');
    cursor = end;
  }
  const header = `${random() < 0.15 ? '  ' : ''}*** Update File: f.txt${random() < 0.15 ? ' ' : ''}`;
  const inner = ['*** Begin Patch', ...(random() < 0.1 ? ['*** Environment ID: local'] : []), header, ...body, '*** End Patch'];
  const wrap = int(random, 12);
  const lines = wrap === 0 ? ["<<'EOF'", ...inner, 'EOF'] : wrap === 1 ? ['apply_patch <<"EOF"', ...inner, 'EOF'] : wrap === 2 ? ['<<EOF', ...inner, 'EOF'] : inner;
  return lines.join(random() < 0.1 ? '\r\n' : '\n') + (random() < 0.5 ? '\n' : '');
}

/** toolhost's answer in the reference's terms. */
function toolhost(file: string[], patch: string): RefOutcome {
  const text = file.length === 0 ? '' : `${file.join('\n')}\n`;
  try {
    const [op] = parsePatch(patch);
    if (op?.type !== 'update') return { ok: false, stage: 'parse', reason: 'not an update' };
    const out = applyChunks(text, op.chunks, op.path);
    const lines = out === '' ? [] : out.slice(0, -1).split('\n');
    if (out !== '' && !out.endsWith('\n')) return { ok: false, stage: 'apply', reason: 'lost the final line break' };
    return { ok: true, lines };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { ok: false, stage: error.code === 'invalid_arguments' ? 'parse' : 'apply', reason: error.code };
  }
}

const brief = (o: RefOutcome): unknown => (o.ok ? { ok: true, lines: o.lines } : { ok: false, stage: o.stage });

describe('apply_patch differential fuzz against a reference written from Codex\'s algorithm', () => {
  it('agrees with the reference on 4,000 random files and valid or broken patches (chunk order, @@ context, End of File, trim and punctuation passes, pure additions)', () => {
    const random = seededRandom(0xc0de);
    let applied = 0;
    let refused = 0;
    for (let n = 0; n < 4000; n += 1) {
      const file = randomFile(random);
      const patch = randomPatch(random, file);
      const expected = refPatch(file, patch);
      const actual = toolhost(file, patch);
      if (JSON.stringify(brief(actual)) !== JSON.stringify(brief(expected))) {
        expect({ case: n, file, patch, actual: brief(actual) }).toEqual({ case: n, file, patch, actual: brief(expected) });
      }
      if (expected.ok) applied += 1;
      else refused += 1;
    }
    // Both kinds are well represented, so agreement means something.
    expect(applied).toBeGreaterThan(1500);
    expect(refused).toBeGreaterThan(400);
  });

  it('through the tool, a patch the reference refuses changes no file of the patch and never says Success (all or nothing)', async () => {
    const random = seededRandom(0xbeef);
    for (let n = 0; n < 150; n += 1) {
      const file = randomFile(random);
      const text = file.length === 0 ? '' : `${file.join('\n')}\n`;
      const platform = createMemoryPlatform({ files: { 'f.txt': text, 'g.txt': 'one\ntwo\n' } });
      const runner = new ToolRunner({ platform, tools: toolProfiles.openai() });
      const single = randomPatch(random, file).replace(/\r\n/g, '\n').trim();
      const inner = single.slice(single.indexOf('*** Begin Patch'), single.lastIndexOf('*** End Patch'));
      const patch = `${inner}*** Update File: g.txt\n@@\n-two\n+TWO\n*** End Patch`;
      const expected = refPatch(file, `${inner}*** End Patch`);
      const [result] = (await runner.processToolCalls([{ id: 'c', name: 'apply_patch', args: { input: patch } }])) as [ToolCallResult];
      const f = new TextDecoder().decode(await platform.fs.readFile('/workspace/f.txt'));
      const g = new TextDecoder().decode(await platform.fs.readFile('/workspace/g.txt'));
      if (expected.ok) {
        expect({ n, output: (result as { result?: { output?: string } }).result?.output?.split('\n')[0] }).toEqual({ n, output: 'Success. Updated the following files:' });
        expect({ n, f, g }).toEqual({ n, f: expected.lines.length === 0 ? '' : `${expected.lines.join('\n')}\n`, g: 'one\nTWO\n' });
      } else {
        expect({ n, failed: 'code' in result }).toEqual({ n, failed: true });
        expect({ n, f, g }).toEqual({ n, f: text, g: 'one\ntwo\n' });
      }
    }
  });
});
