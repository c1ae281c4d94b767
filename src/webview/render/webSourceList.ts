import type { WebSource } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { el } from '../dom';

/**
 * The pages a web answer cites, under it: number, title and site, each a link (the transcript
 * carries the click to the host, and VS Code asks before opening the browser). The numbers match
 * the links in the answer's text.
 */
export function webSourceList(sources: readonly WebSource[], strings: WebviewStrings): HTMLElement {
  const items = sources.map((source) =>
    el(
      'li',
      { attrs: { value: String(source.number) } },
      el('a', { className: 'web-source', attrs: { href: source.url, title: source.url } }, el('span', { text: source.title })),
      el('span', { className: 'web-source-host', text: ` · ${source.host}` }),
    ),
  );
  return el(
    'section',
    { className: 'web-sources', attrs: { 'aria-label': strings.webSources } },
    el('div', { className: 'web-sources-title', text: strings.webSources }),
    el('ol', {}, ...items),
  );
}
