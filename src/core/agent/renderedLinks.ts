import MarkdownIt from 'markdown-it';

/** A CommonMark parser that keeps every link as written (its own filter of schemes is off: this is what is being checked). */
const parser = new MarkdownIt({ html: false, linkify: false });
parser.validateLink = () => true;

/**
 * Whether the last line of `markdown` is part of fenced code (its fence lines included) as a
 * CommonMark renderer reads the whole: the check behind LinkGuard's view of where fenced code is,
 * which a renderer decides with rules (lists, quotes, indentation) the guard does not follow.
 */
export function endsInFencedCode(markdown: string): boolean {
  const lastLine = (markdown.replace(/\n$/, '').match(/\n/g) ?? []).length;
  return parser.parse(markdown, {}).some((token) => token.type === 'fence' && token.map !== null && token.map[0] <= lastLine && lastLine < token.map[1]);
}

/** The targets of the links and pictures a CommonMark renderer makes of `markdown` (for tests and checks). */
export function renderedLinkTargets(markdown: string): string[] {
  const targets: string[] = [];
  const visit = (tokens: ReturnType<typeof parser.parse>) => {
    for (const token of tokens) {
      const target = token.type === 'link_open' ? token.attrGet('href') : token.type === 'image' ? token.attrGet('src') : null;
      if (typeof target === 'string') targets.push(target);
      if (token.children) visit(token.children);
    }
  };
  visit(parser.parse(markdown, {}));
  return targets;
}
