import MarkdownIt from 'markdown-it';
import { parseFileLinkHref } from '../../shared/fileLinks';
import type { WebviewStrings } from '../../shared/strings';
import { fileCitations } from './fileCitations';
import { highlightCode } from './highlight';
import { mathMarkdown } from './mathMarkdown';
import { format } from '../webviewStrings';
import type { MathBudget } from './mathTypeset';
import { closeUnfinished, MAY_CONTINUE_ADDRESS } from './unfinishedMarkdown';

/**
 * Markdown → HTML for assistant replies, which are untrusted model output:
 * - `html: false`: any HTML the model writes is shown as text, never parsed;
 * - links survive only with http(s) targets, the only ones the host opens (anything else, mailto
 *   included, stays the literal source text), and the transcript intercepts clicks on them (the
 *   host asks before opening); citations of workspace files (`src/app.ts:12-20`) become links the
 *   host opens in an editor (fileCitations.ts);
 * - images are never loaded: `![alt](url)` becomes a link to the URL;
 * - table alignment becomes a class, because the CSP rejects `style` attributes, and each table
 *   sits in a box that scrolls sideways;
 * - formulas (`$…$`, `$$…$$`, `\(…\)`, `\[…\]`) become placeholders holding their TeX, typeset
 *   after sanitizing (mathMarkdown.ts).
 * The HTML still goes through `sanitize.ts` before it reaches the page.
 */

const SAFE_LINK = /^https?:\/\//i;

export function isSafeHref(href: string): boolean {
  return SAFE_LINK.test(href.trim());
}

/** What a link may lead to: a web address, or lines of a workspace file (a citation). */
export function isAllowedHref(href: string): boolean {
  return isSafeHref(href) || parseFileLinkHref(href) !== undefined;
}

export interface RenderOptions {
  /**
   * The text is the unfinished tail of a reply still streaming:
   * - emphasis, inline code and strikethrough the model has opened but not yet closed are closed
   *   for this render (`**bold` shows as bold; see unfinishedMarkdown.ts);
   * - code is left unhighlighted, as the block is rendered again as it grows (it is highlighted
   *   once complete);
   * - a bare address the text ends in is not made a link yet: it may still be being written, and
   *   a click would open the half-written address.
   */
  streaming?: boolean;
  /** What the answer's formulas may still cost (a fresh budget when none is given). */
  mathBudget?: MathBudget;
}

type RenderEnv = RenderOptions & {
  /** The streaming text as written (before anything was closed for the moment). */
  written?: string;
};

export interface MarkdownRenderer {
  render(source: string, options?: RenderOptions): string;
  /** An empty code block as a fence with this info string starts it (a streaming block's start). */
  emptyCodeBlock(info: string): string;
  /** What a complete code block's `<code>` holds: the code highlighted in `language`, or escaped. */
  codeHtml(code: string, language: string): string;
}

/** The class of the element that wraps each code block (and gets a toolbar). */
export const CODE_BLOCK_CLASS = 'code-block';

/** The class of the box each table scrolls sideways in. */
export const TABLE_SCROLL_CLASS = 'table-scroll';

/** Language names as they may appear in a fence's info string and a class name. */
const LANGUAGE = /^[\w#+.-]{1,50}$/;

export function fenceLanguage(info: string): string {
  const word = info.trim().split(/\s+/)[0] ?? '';
  return LANGUAGE.test(word) ? word : '';
}

export function createMarkdownRenderer(strings: WebviewStrings): MarkdownRenderer {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  const escape = md.utils.escapeHtml;

  md.validateLink = isSafeHref;
  md.use(fileCitations);
  md.use(mathMarkdown);

  const rules = md.renderer.rules;

  rules.fence = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    return codeBlock(token.content, languageOf(token.info), Boolean((env as RenderOptions | undefined)?.streaming));
  };
  rules.code_block = (tokens, idx) => codeBlock(tokens[idx].content, '', true);

  function codeBlock(code: string, language: string, plain: boolean): string {
    const languageClass = language ? ` language-${escape(language)}` : '';
    return (
      `<div class="${CODE_BLOCK_CLASS}" data-lang="${escape(language)}"><pre><code class="hljs${languageClass}">` +
      `${plain ? escape(code) : codeHtml(code, language)}</code></pre></div>\n`
    );
  }

  /** A fence's language, from its info string as written (backslash escapes and entities resolved). */
  function languageOf(info: string): string {
    return fenceLanguage(md.utils.unescapeAll(info));
  }

  function codeHtml(code: string, language: string): string {
    return highlightCode(code, language) ?? escape(code);
  }

  md.core.ruler.after('linkify', 'unfinished_address', (state) => {
    const { written } = state.env as RenderEnv;
    if (written) unlinkTrailingAddress(state.tokens, written);
  });

  rules.link_open = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    // Clicks are intercepted, so the tooltip is the only way to see where a link goes.
    if (!token.attrGet('title')) token.attrSet('title', String(token.attrGet('href') ?? ''));
    return self.renderToken(tokens, idx, options);
  };

  rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env) || src;
    return `<a href="${escape(src)}" class="image-link" title="${escape(src)}">${escape(format(strings.imageLink, alt))}</a>`;
  };

  const alignedCell: NonNullable<typeof rules.th_open> = (tokens, idx, options, _env, self) => {
    const token = tokens[idx];
    const align = /text-align:(left|center|right)/.exec(String(token.attrGet('style') ?? ''))?.[1];
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== 'style');
    if (align) token.attrJoin('class', `align-${align}`);
    return self.renderToken(tokens, idx, options);
  };
  rules.th_open = alignedCell;
  rules.td_open = alignedCell;

  // A table wider than the panel scrolls sideways in a box of its own, so its cells never have to
  // break words to fit (tables.ts makes the box reachable from the keyboard).
  rules.table_open = (tokens, idx, options, _env, self) => `<div class="${TABLE_SCROLL_CLASS}">` + self.renderToken(tokens, idx, options);
  rules.table_close = (tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options) + '</div>\n';

  const render = (written: string, options: RenderOptions = {}): string => {
    const env = { ...options, written: options.streaming ? written : undefined } satisfies RenderEnv;
    const source = options.streaming ? closeUnfinished(written) : written;
    const tokens = md.parse(source, env);
    const html = md.renderer.render(tokens, md.options, env);
    // Past `maxNesting` (its guard against deep recursion) markdown-it silently drops the rest of
    // the document; show that rest as plain text instead of losing it.
    const limit = md.options.maxNesting ?? 100;
    if (!tokens.some((token) => token.level >= limit - 1)) return html;
    let lastLine = 0;
    for (const token of tokens) if (token.map && (token.type === 'inline' || (token.block && !token.nesting))) lastLine = Math.max(lastLine, token.map[1]);
    const rest = source.split('\n').slice(lastLine).join('\n').trim();
    return rest ? `${html}<p class="md-overflow">${escape(rest)}</p>\n` : html;
  };
  return { render, emptyCodeBlock: (info) => codeBlock('', languageOf(info), true), codeHtml };
}

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

/**
 * Turns a link that linkify made of the last word of `written` back into text, when the text ends
 * in it (but for punctuation that may yet belong to it): the next characters may still be part of
 * the address.
 */
function unlinkTrailingAddress(tokens: Token[], written: string): void {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last].nesting === -1) last--;
  const children = tokens[last]?.type === 'inline' ? tokens[last].children : null;
  if (!children) return;
  let close = children.length - 1;
  // Past what follows the address: closing tokens, the empty text a delimiter left behind, punctuation.
  const trails = (token: Token) =>
    (token.nesting === -1 && token.type !== 'link_close') || (token.type === 'text' && (!token.content || MAY_CONTINUE_ADDRESS.test(token.content)));
  while (close >= 0 && trails(children[close])) close--;
  const open = close - 2;
  if (children[close]?.type !== 'link_close' || children[open]?.type !== 'link_open' || children[open].markup !== 'linkify') return;
  // Something else follows it (a space, a closing **): it is complete.
  if (!written.replace(MAY_CONTINUE_ADDRESS, '').endsWith(children[open + 1].content)) return;
  children.splice(close, 1);
  children.splice(open, 1);
}
