// A pass over web_fetch's parsed page (hast) before its conversion to Markdown: it drops what shows no
// text, in time linear in the page. The converter's whitespace step looks ahead, from each node, past
// every following sibling that decides nothing about whitespace (an empty `<b></b>`, an icon-font
// `<i class="fa x"></i>`, a comment, a `<script>`), so a long run of them cost time quadratic in its
// length; after this pass no two such siblings are left next to each other (but for `<rp>`, rare).
// Imports only the types.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';

/**
 * Elements kept even when they hold no text: those that break lines or make structure (the whitespace
 * step's block elements: paragraphs, headings, lists, table cells, `<br>`, `<hr>`, …), form controls,
 * embedded content and the addresses of `<base>` and `<source>`. Any other element (`<b>`, `<i>`, `<span>`, `<code>`, a custom `<ion-icon>`, …)
 * shows nothing but its content.
 */
const KEEP = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'col', 'colgroup', 'dd', 'dialog', 'dir',
  'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header',
  'hgroup', 'hr', 'html', 'legend', 'li', 'listing', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext',
  'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'wbr', 'xmp',
  'button', 'input', 'select', 'textarea',
  'audio', 'canvas', 'embed', 'iframe', 'img', 'math', 'object', 'picture', 'svg', 'video',
  // Read by the converter for an address: a media element's sources, the page's base URL.
  'base', 'source', 'track',
]);
/** Elements the converter shows nothing of, whatever they hold: dropped. */
const UNSHOWN = new Set([
  'area', 'basefont', 'datalist', 'dialog', 'link', 'meta', 'noembed', 'noframes', 'param', 'script', 'style', 'template', 'title',
]);
/** Embedded content whose `<source>` and `<track>` children the converter reads (elsewhere they show nothing). */
const MEDIA = new Set(['audio', 'video', 'picture', 'object']);

/** What one tidying pass carries: the deadline check, and whether a `<base>` was kept (the converter reads only the first). */
interface Pass {
  check: () => void;
  base: boolean;
}

type Node = Root | RootContent;

/** True for a text node of whitespace alone (what the converter's whitespace step passes over). */
function blankText(node: Node): node is Text {
  return node.type === 'text' && !/[^ \t\n\f\r]/.test(node.value);
}

/** The text a link that shows none is given: its label (`aria-label`, `title`) or its address. */
function linkLabel(element: Element): string | undefined {
  const props = element.properties;
  const label = [props['ariaLabel'], props['title'], props['href']].find((value) => typeof value === 'string' && value.trim() !== '');
  return typeof label === 'string' ? label.trim() : undefined;
}

/** True for an element the converter shows nothing of here: {@link UNSHOWN}, `hidden`, a second `<base>`, a `<source>` or `<track>` outside media. */
function unshown(element: Element, inMedia: boolean, pass: Pass): boolean {
  const tag = element.tagName;
  if (tag === 'base') {
    const later = pass.base;
    pass.base = true;
    return later;
  }
  if ((tag === 'source' || tag === 'track') && !inMedia) return true;
  // A hidden input shows nothing (pages carry long runs of them, which the converter's clean-up of
  // adjacent text took quadratic time over).
  if (tag === 'input' && String(element.properties['type'] ?? '').toLowerCase() === 'hidden') return true;
  return UNSHOWN.has(tag) || element.properties['hidden'] === true;
}

/**
 * `children` tidied: comments and elements shown nothing of ({@link unshown}) dropped, elements not
 * in {@link KEEP} that hold only whitespace (once tidied themselves) replaced by that whitespace,
 * except a link with an address, which is given its label as text; then neighbouring text nodes joined.
 */
function tidyChildren(children: ElementContent[], inMedia: boolean, pass: Pass): ElementContent[] {
  const out: ElementContent[] = [];
  const push = (node: ElementContent): void => {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else out.push(node);
  };
  for (const child of children) {
    pass.check();
    if (child.type === 'comment') continue;
    if (child.type !== 'element') {
      push(child);
      continue;
    }
    if (unshown(child, inMedia, pass)) continue;
    child.children = tidyChildren(child.children, MEDIA.has(child.tagName), pass);
    if (KEEP.has(child.tagName) || !child.children.every(blankText)) {
      push(child);
      continue;
    }
    const label = child.tagName === 'a' && child.properties['href'] !== undefined ? linkLabel(child) : undefined;
    if (label !== undefined) {
      child.children = [{ type: 'text', value: label }];
      push(child);
      continue;
    }
    for (const text of child.children) push(text);
  }
  return out;
}

/**
 * Tidies the page `tree` in place, in one pass linear in its size (a recursion as deep as the page
 * nests, which its structure check bounds): HTML comments, `hidden` elements and elements the Markdown
 * shows nothing of (`<script>`, `<style>`, `<template>`, `<meta>`, …) are dropped; other elements that
 * hold no text and are not kept for their own sake ({@link KEEP}: block, form and embedded elements),
 * such as an empty `<b></b>`, an icon-font `<i class="fa x"></i>` or `<ion-icon>`, or nested empties,
 * are replaced by the whitespace they hold; an empty link with an address is given its `aria-label`,
 * `title` or address as text. `check` (the deadline check) is called once a node.
 */
export function tidyHtml(tree: Root, check: () => void = () => undefined): void {
  const pass: Pass = { check, base: false };
  for (const child of tree.children) {
    if (child.type === 'element') child.children = tidyChildren(child.children, false, pass);
  }
  tree.children = tree.children.filter((child) => child.type !== 'comment');
}
