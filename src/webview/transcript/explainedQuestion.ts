import { fencedCode } from '../../shared/fencedCode';
import { fileLinkHref, parseFileLinkHref } from '../../shared/fileLinks';
import type { ExplainedCode } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { el } from '../dom';
import { FILE_LINK_CLASS } from '../render/fileCitations';
import { icon } from '../icons';
import type { FragmentRenderer } from '../render/streamingTail';
import { format } from '../webviewStrings';

/**
 * An Explain Selection question as the user reads it: "Explain" and a chip of the file and lines
 * (a link that opens them, as a citation in a reply does), with the code folded below in a code
 * block. The prompt the model got (the turn's text) is not shown: it repeats the code in a fence.
 */
export function explainedQuestion(explained: ExplainedCode, renderer: FragmentRenderer, strings: WebviewStrings): HTMLElement {
  const name = explained.file.split('/').at(-1) ?? explained.file;
  const lines = explained.first === explained.last ? `${explained.first}` : `${explained.first}–${explained.last}`;
  const label = `${name}:${lines}`;
  const where = `${explained.file}:${lines}`;
  const href = fileLinkHref(explained);
  // A file the citation form cannot name (no extension: `Makefile`) is shown, not linked.
  const chip = parseFileLinkHref(href)
    ? el(
        'a',
        { className: `${FILE_LINK_CLASS} explain-chip`, attrs: { href, title: format(strings.openSource, where) } },
        icon('openEditor'),
        el('span', { text: label }),
      )
    : el('span', { className: 'explain-chip', attrs: { title: where } }, icon('openEditor'), el('span', { text: label }));
  const code = el('details', { className: 'explained-code' }, el('summary', { text: strings.explainedCode }));
  code.appendChild(renderer.renderFragment(fencedCode(explained.code, explained.language), {}));
  return el(
    'div',
    { className: 'turn-body user-text explain-question' },
    el('div', { className: 'explain-line' }, el('span', { className: 'explain-command', text: strings.explainCommand }), chip),
    code,
  );
}
