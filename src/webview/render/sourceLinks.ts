import { citationText, fileLinkHref, type FileLocation } from '../../shared/fileLinks';
import type { WebviewStrings } from '../../shared/strings';
import { el, iconButton } from '../dom';
import { FILE_LINK_CLASS } from './fileCitations';
import { icon } from '../icons';
import { format } from '../webviewStrings';

/**
 * The passages of the workspace a question was sent with (codebase context), under the question:
 * each the file's name and lines, a link that opens the file there (the transcript carries the
 * click to the host, as it does a citation in a reply); the full path in its tooltip. On the last
 * question, each has a × that asks again without it (shown by `TurnView.setSourcesRemovable`).
 */
export function sourceLinks(sources: readonly FileLocation[], strings: WebviewStrings): HTMLElement {
  const items = sources.map((source, index) => {
    const name = source.file.split('/').at(-1) ?? source.file;
    const label = citationText({ ...source, file: name });
    const link = el(
      'a',
      { className: `${FILE_LINK_CLASS} source-chip`, attrs: { href: fileLinkHref(source), title: format(strings.openSource, citationText(source)) } },
      icon('openEditor'),
      el('span', { text: label }),
    );
    const remove = iconButton(icon('close'), format(strings.removeSource, label), 'remove-source');
    remove.dataset.sourceIndex = String(index);
    remove.hidden = true;
    return el('li', { className: 'source-item' }, link, remove);
  });
  return el('ul', { className: 'turn-sources', attrs: { 'aria-label': strings.codebaseSources } }, ...items);
}
