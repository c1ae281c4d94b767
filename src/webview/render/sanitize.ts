import { isAllowedHref } from './markdown';

/**
 * Turns renderer HTML into nodes, keeping only the elements and attributes the markdown renderer
 * is configured to produce. markdown-it with `html: false` already escapes everything the model
 * writes; this is the second wall, so a renderer or plugin bug still cannot smuggle in a script,
 * an event handler, a `style`, or anything that loads a resource.
 *
 * Parsing happens in a `<template>`, whose content is inert: nothing in it loads or runs before
 * it has been checked.
 */

const ALLOWED: Record<string, readonly string[]> = {
  br: [],
  hr: [],
  blockquote: [],
  ul: [],
  li: [],
  strong: [],
  em: [],
  s: [],
  pre: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  ol: ['start'],
  p: ['class'],
  th: ['class'],
  td: ['class'],
  code: ['class'],
  span: ['class'],
  div: ['class', 'data-lang'],
  a: ['href', 'title', 'class'],
};

const CLASS_VALUE = /^[\w\s-]*$/;

export function sanitizedFragment(html: string): DocumentFragment {
  // A fresh template each time: the returned fragment is its content, moved into the page on insertion.
  const template = document.createElement('template');
  template.innerHTML = html;
  const fragment = template.content;
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ELEMENT);
  const rejected: Element[] = [];
  for (let node = walker.nextNode() as Element | null; node; node = walker.nextNode() as Element | null) {
    const tag = node.localName;
    const allowedAttributes = node.namespaceURI === 'http://www.w3.org/1999/xhtml' ? ALLOWED[tag] : undefined;
    if (!allowedAttributes) {
      rejected.push(node);
      continue;
    }
    const attributes = node.attributes;
    for (let index = attributes.length - 1; index >= 0; index--) {
      const { name, value } = attributes[index];
      const keep =
        allowedAttributes.includes(name) &&
        (name !== 'class' || CLASS_VALUE.test(value)) &&
        (name !== 'href' || isAllowedHref(value)) &&
        (name !== 'start' || /^\d{1,9}$/.test(value));
      if (!keep) node.removeAttribute(name);
    }
    if (tag === 'a' && !node.hasAttribute('href')) rejected.push(node);
  }
  // Unknown elements are replaced by their text, so nothing the model wrote silently disappears.
  for (const node of rejected.reverse()) node.replaceWith(document.createTextNode(node.textContent ?? ''));
  return fragment;
}
