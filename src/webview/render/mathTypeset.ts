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
 *   tooltip, and the rest of the reply is not affected;
 * - `maxSize` and `maxExpand`: a `\rule{1e6em}` or a macro that expands without end stays small
 *   and fast.
 *
 * The work is bounded, since a formula of a few hundred characters can take KaTeX a tenth of a
 * second and become thousands of elements that the page lays out each time the chat is opened:
 * a formula longer than MAX_TEX, nested deeper than MAX_DEPTH, or whose typeset form would exceed
 * MAX_FORMULA_ELEMENTS, and every formula of an answer after its first MathBudget is spent, is
 * shown as its source, as code (so is one KaTeX throws on all the same).
 */

const MAX_TEX = 2000;
/** Groups (`{…}`, `\left…\right`, `\begin…\end`) inside one another: a continued fraction needs about 10. */
const MAX_DEPTH = 20;
/** A 10×10 matrix is about 2,700 elements, the quadratic formula about 100. */
const MAX_FORMULA_ELEMENTS = 6000;
/** All of an answer's formulas. */
const ANSWER_ELEMENTS = 24_000;

/** The class of a formula shown as its source. */
export const MATH_SOURCE_CLASS = 'math-source';

const OPTIONS: KatexOptions = {
  output: 'htmlAndMathml',
  trust: false,
  throwOnError: false,
  // The theme's colour, applied through the CSSOM below, like every style KaTeX sets.
  errorColor: 'var(--vscode-errorForeground)',
  maxSize: 20,
  maxExpand: 200,
  // Non-standard input (Cyrillic letters in math mode) is typeset as it is, without console warnings.
  strict: 'ignore',
};

/**
 * The elements an answer's formulas may still add. Formulas are typeset in the order they come
 * until one does not fit; from there on the answer's formulas show as their source, so rendering
 * an answer at once or block by block as it streams gives the same result.
 */
export class MathBudget {
  constructor(private left = ANSWER_ELEMENTS) {}

  /** What is left, for a render that must not spend it (the unfinished block of a streaming reply). */
  copy(): MathBudget {
    return new MathBudget(this.left);
  }

  get spent(): boolean {
    return this.left <= 0;
  }

  /** Takes `elements` if they fit; otherwise the budget is spent. */
  take(elements: number): boolean {
    const fits = elements <= this.left;
    this.left = fits ? this.left - elements : 0;
    return fits;
  }
}

interface Typeset {
  /** Undefined when the formula shows as its source. */
  formula?: Element;
  /** How many elements KaTeX built for it. */
  elements: number;
}

/** Typeset formulas kept for copying: a streaming reply draws its unfinished block again and again. */
const KEPT = 500;
const typeset = new Map<string, Typeset>();

/** `notTypeset` is the tooltip of a formula shown as its source. */
export function typesetMath(root: ParentNode, budget: MathBudget, notTypeset: string): void {
  for (const placeholder of root.querySelectorAll<HTMLElement>(`.${MATH_INLINE_CLASS}, .${MATH_DISPLAY_CLASS}`)) {
    const tex = placeholder.textContent ?? '';
    const formula = formulaFor(tex, placeholder.classList.contains(MATH_DISPLAY_CLASS), budget);
    placeholder.replaceChildren(formula ?? source(tex, notTypeset));
  }
}

/** The nodes of a typeset formula (a copy), or undefined when it shows as its source. */
function formulaFor(tex: string, display: boolean, budget: MathBudget): Node | undefined {
  if (budget.spent || tex.length > MAX_TEX || nestingDepth(tex) > MAX_DEPTH) return undefined;
  const key = `${display ? 'D' : 'I'}${tex}`;
  let kept = typeset.get(key);
  if (!kept) {
    kept = build(tex, display);
    if (typeset.size >= KEPT) typeset.delete(typeset.keys().next().value as string);
    typeset.set(key, kept);
  }
  // A formula too large to show still cost its building: it counts against the answer too (as
  // much as the largest one shown, so that one huge formula leaves the small ones after it).
  const fits = budget.take(Math.min(kept.elements, MAX_FORMULA_ELEMENTS));
  return fits && kept.formula ? kept.formula.cloneNode(true) : undefined;
}

function build(tex: string, display: boolean): Typeset {
  const holder = document.createElement('span');
  try {
    withStylesThroughCssom(() => katex.render(tex, holder, { ...OPTIONS, displayMode: display }));
  } catch {
    return { elements: 0 };
  }
  const formula = holder.firstElementChild;
  const elements = holder.getElementsByTagName('*').length;
  if (!formula || elements > MAX_FORMULA_ELEMENTS || formula.querySelector('a, img, [href], [src]')) return { elements };
  return { formula, elements };
}

/** How deep the TeX's groups nest (escaped braces are characters, not groups). */
export function nestingDepth(tex: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [token] of tex.matchAll(/\\(?:left|right|begin|end)(?![a-zA-Z])|\\.|[{}]/g)) {
    if (token === '{' || token === '\\left' || token === '\\begin') deepest = Math.max(deepest, ++depth);
    else if (token === '}' || token === '\\right' || token === '\\end') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

function source(tex: string, notTypeset: string): HTMLElement {
  const code = document.createElement('code');
  code.className = MATH_SOURCE_CLASS;
  code.title = notTypeset;
  code.textContent = tex;
  return code;
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
