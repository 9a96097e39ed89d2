// A pass over web_fetch's parsed page (hast) before its conversion to Markdown: it drops what shows no
// text, in time linear in the page. The converter's whitespace step looks ahead, from each node, past
// every following sibling that decides nothing about whitespace (an empty `<b></b>`, an icon-font
// `<i class="fa x"></i>`, a comment, a `<script>`), so a long run of them cost time quadratic in its
// length; after this pass no two such siblings are left next to each other. Imports only the types.
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';

/** Elements shown by nothing but their content: dropped (their whitespace kept) when they hold no text. */
const INLINE = new Set([
  'a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'blink', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'font',
  'i', 'ins', 'kbd', 'label', 'mark', 'nobr', 'q', 'rb', 'rt', 'rtc', 'ruby', 's', 'samp', 'small', 'span',
  'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var',
]);
/** Elements the converter shows nothing of, whatever they hold: dropped. */
const UNSHOWN = new Set([
  'area', 'basefont', 'datalist', 'dialog', 'link', 'meta', 'noembed', 'noframes', 'param', 'script', 'style', 'template', 'title',
]);

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

/**
 * `children` tidied: comments and {@link UNSHOWN} elements dropped, {@link INLINE} elements that hold
 * only whitespace (once tidied themselves) replaced by that whitespace, except a link with an address,
 * which is given its label as text; then neighbouring text nodes joined. `check` is called once a node.
 */
function tidyChildren(children: ElementContent[], check: () => void): ElementContent[] {
  const out: ElementContent[] = [];
  const push = (node: ElementContent): void => {
    const last = out[out.length - 1];
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else out.push(node);
  };
  for (const child of children) {
    check();
    if (child.type === 'comment') continue;
    if (child.type !== 'element') {
      push(child);
      continue;
    }
    if (UNSHOWN.has(child.tagName)) continue;
    // Embedded content (a video's sources, a picture's) is read whole by the converter: left as it is.
    if (child.tagName === 'video' || child.tagName === 'audio' || child.tagName === 'picture' || child.tagName === 'object') {
      push(child);
      continue;
    }
    child.children = tidyChildren(child.children, check);
    if (!INLINE.has(child.tagName) || !child.children.every(blankText)) {
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
 * nests, which its structure check bounds): HTML comments and elements the Markdown shows nothing of
 * (`<script>`, `<style>`, `<template>`, `<meta>`, …) are dropped; inline elements that hold no text
 * (an empty `<b></b>`, an icon-font `<i class="fa x"></i>`, nested empties) are replaced by the
 * whitespace they hold; an empty link with an address is given its `aria-label`, `title` or address
 * as text. `check` (the deadline check) is called once a node.
 */
export function tidyHtml(tree: Root, check: () => void = () => undefined): void {
  for (const child of tree.children) {
    if (child.type === 'element') child.children = tidyChildren(child.children, check);
  }
  tree.children = tree.children.filter((child) => child.type !== 'comment');
}
