import type { AttachedDocument } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { el } from '../dom';
import { icon } from '../icons';
import { format, uiLocale } from '../webviewStrings';

/**
 * How a document attached to a message looks: a file icon, its name, and its type and size
 * ("PDF · 1.2 MB"), on the chip above the input and on the question it was sent with. Its bytes
 * never reach the view: the host keeps the file and uploads it.
 */
export function documentParts(document: AttachedDocument): Element[] {
  return [
    icon('file'),
    el('span', { className: 'document-name', text: document.name }),
    el('span', { className: 'document-meta', text: documentMeta(document) }),
  ];
}

/** The documents a question was sent with, as chips that stay with it (also after a reload). */
export function questionDocuments(documents: readonly AttachedDocument[], strings: WebviewStrings): HTMLElement {
  const list = el('ul', { className: 'question-documents', attrs: { 'aria-label': strings.questionDocuments } });
  for (const document of documents) {
    list.appendChild(el('li', { className: 'document-chip', attrs: { title: format(strings.attachedDocument, document.name) } }, ...documentParts(document)));
  }
  return list;
}

/** "PDF · 12 KB", "DOCX · 1,2 МБ": the type from the extension, the size in the display language, never broken across lines. */
function documentMeta(document: AttachedDocument): string {
  const megabytes = document.bytes >= 1024 * 1024;
  const size = new Intl.NumberFormat(uiLocale(), { style: 'unit', unit: megabytes ? 'megabyte' : 'kilobyte', maximumFractionDigits: 1 })
    .format(megabytes ? document.bytes / (1024 * 1024) : Math.max(1, Math.round(document.bytes / 1024)))
    .replace(' ', '\u00a0');
  return document.extension ? `${document.extension.toUpperCase()} · ${size}` : size;
}
