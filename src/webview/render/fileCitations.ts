import type MarkdownIt from 'markdown-it';
import { citationPattern, citationText, fileLinkHref, locationOf, parseCitation, type FileLocation } from '../../shared/fileLinks';

type Md = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Md['parse']>[number];
type StateCore = Parameters<Parameters<Md['core']['ruler']['push']>[1]>[0];

/** The class of a link to lines of a workspace file: the host opens the file there when it is clicked. */
export const FILE_LINK_CLASS = 'file-link';

/**
 * Makes each citation of a workspace file in a reply (`src/app.ts:12`, `src/app.ts:12-20`, also
 * written as inline code) a link that opens the file at those lines. Not inside a link the model
 * wrote, nor in code blocks. Only the form of a citation is checked here; the host opens only a
 * file of the workspace.
 */
export function fileCitations(md: Md): void {
  md.core.ruler.push('file_citations', (state: StateCore) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.children) continue;
      let inLink = 0;
      const children: Token[] = [];
      for (const token of block.children) {
        if (token.type === 'link_open') inLink++;
        if (token.type === 'link_close') inLink--;
        if (inLink > 0 || token.type === 'link_open') children.push(token);
        else if (token.type === 'code_inline') children.push(...codeCitation(state, token));
        else if (token.type === 'text') children.push(...textCitations(state, token));
        else children.push(token);
      }
      block.children = children;
    }
  });
}

function codeCitation(state: StateCore, token: Token): Token[] {
  const location = parseCitation(token.content);
  return location ? linked(state, location, [token]) : [token];
}

function textCitations(state: StateCore, token: Token): Token[] {
  const tokens: Token[] = [];
  let from = 0;
  for (const match of token.content.matchAll(citationPattern())) {
    if (match.index > from) tokens.push(textToken(state, token.content.slice(from, match.index)));
    tokens.push(...linked(state, locationOf(match), [textToken(state, match[0])]));
    from = match.index + match[0].length;
  }
  if (from === 0) return [token];
  if (from < token.content.length) tokens.push(textToken(state, token.content.slice(from)));
  return tokens;
}

function linked(state: StateCore, location: FileLocation, inner: Token[]): Token[] {
  const open = new state.Token('link_open', 'a', 1);
  open.attrs = [
    ['href', fileLinkHref(location)],
    ['class', FILE_LINK_CLASS],
    ['title', citationText(location)],
  ];
  open.markup = 'citation';
  return [open, ...inner, new state.Token('link_close', 'a', -1)];
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token('text', '', 0);
  token.content = content;
  return token;
}
