import type MarkdownIt from 'markdown-it';
import { MathScanner } from './mathDelimiters';

type Md = InstanceType<typeof MarkdownIt>;
type StateInline = Parameters<Parameters<Md['inline']['ruler']['push']>[1]>[0];

/** The classes of the placeholder a formula is rendered as, which mathTypeset.ts typesets. */
export const MATH_INLINE_CLASS = 'math-inline';
export const MATH_DISPLAY_CLASS = 'math-display';

/**
 * Formulas in replies (see mathDelimiters.ts for where they start and end) become placeholders:
 * a `<span>` whose text is the TeX as written. They pass the sanitizer as any span does, and are
 * typeset after it (mathTypeset.ts), by KaTeX building the nodes itself: KaTeX's HTML string
 * output is full of `style` attributes, which the view's CSP refuses.
 *
 * An inline rule rather than a block one, displayed formulas included: a formula then never
 * crosses a blank line, so the blocks the streaming view renders once (blockScanner.ts) render
 * the same as in the whole reply. It runs before markdown-it's escapes, so the TeX keeps its
 * backslashes; code spans and blocks never reach it.
 */
export function mathMarkdown(md: Md): void {
  const scanner = new MathScanner();
  md.inline.ruler.before('escape', 'math', (state: StateInline, silent: boolean) => {
    const span = scanner.at(state.src, state.pos, state.posMax);
    if (!span) return false;
    if (!silent) {
      const token = state.push(span.display ? 'math_display' : 'math_inline', 'span', 0);
      token.content = span.tex;
    }
    state.pos = span.end;
    return true;
  });
  const escape = md.utils.escapeHtml;
  md.renderer.rules.math_inline = (tokens, idx) => `<span class="${MATH_INLINE_CLASS}">${escape(tokens[idx].content)}</span>`;
  md.renderer.rules.math_display = (tokens, idx) => `<span class="${MATH_DISPLAY_CLASS}">${escape(tokens[idx].content)}</span>`;
}
