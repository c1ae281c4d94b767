import katex, { type KatexOptions } from 'katex';
// Copying a selection that holds formulas gives their TeX between dollars, not the glyphs twice over.
import 'katex/contrib/copy-tex';
import { MATH_DISPLAY_CLASS, MATH_INLINE_CLASS } from './mathMarkdown';

/**
 * Typesets the formula placeholders of a sanitized fragment (see mathMarkdown.ts) with KaTeX, as
 * HTML for the eye and MathML for screen readers.
 *
 * The TeX is the model's, so KaTeX runs with:
 * - `trust: false`: `\href`, `\url`, `\includegraphics`, `\html…` are shown as their command in the
 *   error colour, never as a link, a picture or an attribute (and any `a`, `img`, `href` or `src` in
 *   KaTeX's output would make the formula fall back to its text);
 * - `throwOnError: false`: a formula KaTeX cannot parse shows as its source, with the reason in the
 *   tooltip, and the rest of the reply is not affected; anything KaTeX throws all the same leaves
 *   the placeholder's text (the source) as it was;
 * - `maxSize` and `maxExpand`: a `\rule{1e6em}` or a macro that expands without end stays small
 *   and fast;
 * - formulas longer than MAX_TEX stay as text: a model can write megabytes, and KaTeX's time grows
 *   with them.
 */

const MAX_TEX = 5000;

const OPTIONS: KatexOptions = {
  output: 'htmlAndMathml',
  trust: false,
  throwOnError: false,
  // The theme's colour, applied through the CSSOM below, like every style KaTeX sets.
  errorColor: 'var(--vscode-errorForeground)',
  maxSize: 20,
  maxExpand: 500,
  // Non-standard input (Cyrillic letters in math mode) is typeset as it is, without console warnings.
  strict: 'ignore',
};

/** Typeset formulas kept for copying: a streaming reply draws its unfinished block again and again. */
const KEPT = 500;
const typeset = new Map<string, Element>();

export function typesetMath(root: ParentNode): void {
  for (const placeholder of root.querySelectorAll<HTMLElement>(`.${MATH_INLINE_CLASS}, .${MATH_DISPLAY_CLASS}`)) {
    const tex = placeholder.textContent ?? '';
    const formula = formulaFor(tex, placeholder.classList.contains(MATH_DISPLAY_CLASS));
    if (formula) placeholder.replaceChildren(formula);
  }
}

/** The nodes of a typeset formula (a copy), or undefined when it stays as text. */
function formulaFor(tex: string, display: boolean): Node | undefined {
  if (tex.length > MAX_TEX) return undefined;
  const key = `${display ? 'D' : 'I'}${tex}`;
  let formula = typeset.get(key);
  if (!formula) {
    const built = build(tex, display);
    if (!built) return undefined;
    if (typeset.size >= KEPT) typeset.delete(typeset.keys().next().value as string);
    typeset.set(key, built);
    formula = built;
  }
  return formula.cloneNode(true);
}

function build(tex: string, display: boolean): Element | undefined {
  const holder = document.createElement('span');
  try {
    withStylesThroughCssom(() => katex.render(tex, holder, { ...OPTIONS, displayMode: display }));
  } catch {
    return undefined;
  }
  const formula = holder.firstElementChild;
  if (!formula || formula.querySelector('a, img, [href], [src]')) return undefined;
  return formula;
}

/**
 * KaTeX sets most styles through the CSSOM, which the CSP allows, but a few (its error colour, some
 * SVG widths) with `setAttribute('style', …)`, which the CSP refuses and reports. While KaTeX builds
 * a formula, such a call goes to the CSSOM instead: the same declarations, applied.
 */
function withStylesThroughCssom(build: () => void): void {
  const prototype = Element.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'setAttribute');
  const setAttribute = descriptor?.value as ((this: Element, name: string, value: string) => void) | undefined;
  if (!descriptor || !setAttribute) return build();
  Object.defineProperty(prototype, 'setAttribute', {
    ...descriptor,
    value(this: Element, name: string, value: string) {
      if (name.toLowerCase() === 'style' && (this instanceof HTMLElement || this instanceof SVGElement || this instanceof MathMLElement)) {
        this.style.cssText = value;
      } else {
        setAttribute.call(this, name, value);
      }
    },
  });
  try {
    build();
  } finally {
    Object.defineProperty(prototype, 'setAttribute', descriptor);
  }
}

/**
 * The text of rendered nodes as a screen reader's announcement should say it: a typeset formula as
 * its TeX (its nodes' text is the glyphs and the MathML at once).
 */
export function readableText(root: Node): string {
  const text = root.textContent ?? '';
  if (!(root instanceof Element || root instanceof DocumentFragment) || !root.querySelector('.katex')) return text;
  const copy = root.cloneNode(true) as Element | DocumentFragment;
  for (const formula of copy.querySelectorAll('.katex')) {
    formula.replaceWith(formula.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? '');
  }
  return copy.textContent ?? '';
}
