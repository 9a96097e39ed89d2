// web_fetch's HTML → Markdown on pages full of inline elements that show no text (empty emphasis,
// icon fonts, empty links), comments and scripts: the output is right, and the work grows linearly
// with their count (it grew with its square: 3,000 empty `<b></b>` took seconds).
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html.js';

/** `unit` repeated `count` times inside one paragraph between `x ` and `y`. */
function page(unit: string, count: number): string {
  return `<!doctype html><html><head><title>t</title></head><body><p>x ${unit.repeat(count)}y</p></body></html>`;
}

describe('web_fetch HTML conversion of text-less inline elements', () => {
  it.each([
    ['<p>a<b></b>b</p>', 'ab\n'],
    ['<p>a <b></b> b</p>', 'a b\n'],
    ['<p>a<b> </b>b</p>', 'a b\n'],
    ['<p>a <i class="fa fa-home"></i>b</p>', 'a b\n'],
    ['<p>a <strong></strong><em></em> b</p>', 'a b\n'],
    ['<p>a <b><i><span> </span></i></b> b <strong>c</strong></p>', 'a b **c**\n'],
    ['<p>a<!-- note -->b</p><script>var x = 1;</script><style>p {}</style>', 'ab\n'],
    ['<p>a<code></code>b<u></u>c<font> </font>d</p>', 'abc d\n'],
    ['<p>go <a href="/home" aria-label="Home"><i class="fa fa-home"></i></a> or <a href="/x"></a><a name="top"></a></p>', 'go [Home](/home) or [/x](/x)\n'],
    ['<p><b>bold</b> <i>it</i> <a href="/y">link</a></p>', '**bold** *it* [link](/y)\n'],
    ['<p>a <span hidden>secret</span><b hidden></b>b <source src="/s.mp4"><track src="/t.vtt"></p>', 'a b\n'],
    ['<video src="/v.mp4"><b></b></video><video><source src="/w.mp4"></video>', '[](/v.mp4)[](/w.mp4)\n'],
    ['<base href="https://a.example/x/"><p><base href="https://b.example/"><a href="y">y</a></p>', '[y](https://a.example/x/y)\n'],
  ])('%s', (html, markdown) => {
    expect(htmlToMarkdown(html)).toBe(markdown);
  });

  it.each([
    ['<b></b> '],
    ['<b></b>'],
    ['<i class="fa x"></i>'],
    ['<strong></strong> '],
    ['<b><i><span></span></i></b> '],
    ['<em> </em>'],
    ['<a href="#"></a>'],
    ['<code></code> '],
    ['<!----> '],
    ['<script></script> '],
    ['<span hidden>x</span>'],
    ['<source src="/a.mp4"> '],
    ['<base href="/"> '],
  ])('a page of 50,000 %s converts within the call deadline, correctly', (unit) => {
    const markdown = htmlToMarkdown(page(unit, 50_000), { deadline: Date.now() + 20_000 });
    expect(markdown.startsWith('x ')).toBe(true);
    expect(markdown.endsWith('y\n')).toBe(true);
    expect(markdown.includes('**')).toBe(false);
  });

  it('grows linearly with the count of empty elements (4x the elements, far less than 16x the time)', () => {
    const time = (count: number): number => {
      const html = page('<b></b> <i class="fa x"></i>', count);
      const start = performance.now();
      expect(htmlToMarkdown(html)).toBe('x y\n');
      return performance.now() - start;
    };
    time(2_000); // warm up
    const small = Math.min(time(5_000), time(5_000));
    const large = Math.min(time(20_000), time(20_000));
    // Quadratic growth gives 16x; linear about 4x. 10x leaves room for a noisy, shared machine.
    expect(large / small).toBeLessThan(10);
  });
});
