// web_fetch's HTML → Markdown on pages full of inline elements that show no text (empty emphasis,
// icon fonts, empty links), comments and scripts: the output is right, and the work grows linearly
// with their count (it grew with its square: 3,000 empty `<b></b>` took seconds; 50,000 take hours).
import { describe, expect, it } from 'vitest';
import type { ElementContent, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { htmlToMarkdown } from './html.js';
import { tidyHtml } from './html-tidy.js';

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
    ['<p>a <ion-icon name="star"></ion-icon>b</p><table><tr><th>k</th><th>v</th></tr><tr><td></td><td><b></b>x</td></tr></table>', 'a b\n\n| k | v |\n| - | - |\n|   | x |\n'],
    ['<p>a <span hidden>secret</span><b hidden></b>b <source src="/s.mp4"><track src="/t.vtt"></p>', 'a b\n'],
    ['<form><p>a <input type="hidden" name="t" value="secret"> b</p></form>', 'a b\n'],
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
    ['<ion-icon name="star"></ion-icon> '],
    ['<noscript></noscript><map></map><meter></meter>'],
    ['<source src="/a.mp4"> '],
    ['<base href="/"> '],
    ['<input type="hidden" name="a" value="b"> '],
    ['<INPUT TYPE=HIDDEN NAME=a>'],
  ])('a page of 50,000 %s converts within the call deadline, correctly', (unit) => {
    const markdown = htmlToMarkdown(page(unit, 50_000), { deadline: Date.now() + 20_000 });
    expect(markdown.startsWith('x ')).toBe(true);
    expect(markdown.endsWith('y\n')).toBe(true);
    expect(markdown.includes('**')).toBe(false);
  });

  // What keeps the whitespace step linear: it looks ahead past siblings that decide nothing (whitespace,
  // comments, elements holding no text), and after the tidying no two such siblings are neighbours.
  it('leaves no two neighbouring siblings that decide nothing about whitespace', () => {
    const tree = fromHtml(page('<b></b> <i class="fa x"></i><!-- c --><ion-icon></ion-icon><span> <em></em> </span><script>x</script><span hidden>h</span> ', 2_000));
    tidyHtml(tree);
    const undecided = (node: ElementContent | RootContent): boolean =>
      node.type === 'comment' || (node.type === 'text' && node.value.trim() === '') || (node.type === 'element' && node.children.every(undecided) && !['p', 'br', 'img'].includes(node.tagName));
    let lists = 0;
    const walk = (children: Array<ElementContent | RootContent>): void => {
      lists += 1;
      children.forEach((child, index) => {
        if (index > 0 && undecided(child)) expect(undecided(children[index - 1]!)).toBe(false);
        if (child.type === 'element') walk(child.children);
      });
    };
    walk(tree.children);
    expect(lists).toBeGreaterThan(3);
  });
});
