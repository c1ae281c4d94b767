import type { WebviewStrings } from '../../shared/strings';
import { addCodeToolbars } from './codeBlocks';
import { hasImageMarkers, imageSlot, markImageSlots } from './pictureSlots';
import { CODE_BLOCK_CLASS, createMarkdownRenderer, TABLE_SCROLL_CLASS, type RenderOptions } from './markdown';
import { MATH_DISPLAY_CLASS, MATH_INLINE_CLASS } from './mathMarkdown';
import { MathBudget, typesetMath } from './mathTypeset';
import { sanitizedFragment } from './sanitize';
import type { FragmentRenderer } from './streamingTail';
import { makeTablesScrollable } from './tables';

/** Distinct fence info strings whose empty code block is kept for copying (a reply uses a few). */
const SHELLS_KEPT = 32;

/**
 * Markdown → the nodes a reply shows: sanitized, with image slots, code toolbars, scrolling tables and typeset formulas. A streaming
 * reply asks for many small fragments, so what repeats is built once: an empty code block for each
 * fence info string is copied rather than rendered again.
 */
export function createFragmentRenderer(strings: WebviewStrings): FragmentRenderer {
  const markdown = createMarkdownRenderer(strings);
  const fragmentOf = (html: string, source: string, mathBudget = new MathBudget()) => {
    const fragment = sanitizedFragment(html);
    // Each pass costs even where it finds nothing, and a streaming reply renders many fragments.
    if (hasImageMarkers(source)) markImageSlots(fragment, strings);
    if (html.includes(CODE_BLOCK_CLASS)) addCodeToolbars(fragment, strings);
    if (html.includes(TABLE_SCROLL_CLASS)) makeTablesScrollable(fragment, strings);
    if (html.includes(MATH_INLINE_CLASS) || html.includes(MATH_DISPLAY_CLASS)) typesetMath(fragment, mathBudget, strings.formulaNotTypeset);
    return fragment;
  };
  const shells = new Map<string, DocumentFragment>();
  return {
    renderFragment: (source: string, options: RenderOptions) => fragmentOf(markdown.render(source, options), source, options.mathBudget),
    codeBlockShell: (info: string) => {
      let shell = shells.get(info);
      if (!shell) {
        if (shells.size >= SHELLS_KEPT) shells.clear();
        shell = fragmentOf(markdown.emptyCodeBlock(info), '');
        shells.set(info, shell);
      }
      return shell.cloneNode(true) as DocumentFragment;
    },
    codeContent: (code: string, language: string) => sanitizedFragment(markdown.codeHtml(code, language)),
    imageSlot: () => imageSlot(strings),
  };
}
