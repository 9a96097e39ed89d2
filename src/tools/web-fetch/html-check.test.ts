// web_fetch's structure check: the sliced form (64 Ki characters between event-loop turns) gives the
// answer of one whole pass, whatever falls on a slice edge, and stops at the caller's signal.
import { describe, expect, it } from 'vitest';
import { checkStructure, checkStructureInSlices } from './html-check.js';

/** The check's answer: 'ok' or the error's code and message. */
function outcome(run: () => void): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}

async function outcomeOfSlices(html: string, maxDepth?: number, maxNodes?: number): Promise<string> {
  try {
    await checkStructureInSlices(html, { maxDepth, maxNodes });
    return 'ok';
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
}

const SLICE = 64 * 1024;

describe('checkStructureInSlices', () => {
  const pad = (n: number): string => 'x'.repeat(n);
  const cases: Array<[string, string, number?, number?]> = [
    ['a page under the caps', `<html><body>${'<p>a<p>b'.repeat(20_000)}</body></html>`],
    ['implied end tags (<p>a<p>b) are siblings, not nesting', `<body>${'<p>text'.repeat(5_000)}</body>`, 10],
    ['depth passed just after a slice edge', `${pad(SLICE - 3)}${'<div>'.repeat(12)}`, 10],
    ['a tag cut by the slice edge', `${pad(SLICE - 2)}<div><div><div>`, 2],
    ['a comment and a script cut by slice edges', `${pad(SLICE - 5)}<!-- <div><div><div> -->${pad(SLICE - 20)}<script>"<div><div><div>"</script><div><div>`, 2],
    ['the node cap passed far into the page', `<body>${'<i>x</i>'.repeat(30_000)}</body>`, undefined, 50_000],
    ['200,000 nested divs', `${'<div>'.repeat(200_000)}x${'</div>'.repeat(200_000)}`],
  ];
  for (const [name, html, maxDepth, maxNodes] of cases) {
    it(`answers as one whole pass: ${name}`, async () => {
      const whole = outcome(() => checkStructure(html, maxDepth, maxNodes));
      expect(await outcomeOfSlices(html, maxDepth, maxNodes)).toBe(whole);
    });
  }

  it('refuses too deep and too many nodes with messages naming which', async () => {
    expect(await outcomeOfSlices(`${pad(SLICE - 3)}${'<div>'.repeat(12)}`, 10)).toMatch(/^too_large: the page nests elements more than 10 deep/);
    expect(await outcomeOfSlices(`<body>${'<i>x</i>'.repeat(30_000)}</body>`, undefined, 50_000)).toMatch(/^too_large: the page has more than 50000 elements and text nodes/);
    expect(await outcomeOfSlices('<div>'.repeat(5), 10)).toBe('ok');
  });

  it("ends between two slices when the caller's signal aborts, with its reason's code", async () => {
    const controller = new AbortController();
    const checking = checkStructureInSlices(`<body>${'<p>ok</p>'.repeat(100_000)}</body>`, { signal: controller.signal });
    controller.abort(Object.assign(new Error('the call passed its deadline'), { name: 'ToolError', code: 'timeout' }));
    await expect(checking).rejects.toMatchObject({ code: 'timeout' });
  });
});
