import { ErrorAction, type Turn } from '../../shared/protocol';
import { parseFileLinkHref } from '../../shared/fileLinks';
import type { WebviewStrings } from '../../shared/strings';
import { handleCodeAction, showCopied } from '../render/codeBlocks';
import { isSafeHref } from '../render/markdown';
import { post } from '../vscodeApi';

/** What a click in the transcript needs of the rest of the view. */
export interface TranscriptClicks {
  strings: WebviewStrings;
  /** Says a result for screen readers. */
  announce: (text: string) => void;
  /** The turn whose message holds `target`, if any. */
  turnOf: (target: Element) => Turn | undefined;
  /** A question's Edit button: the composer takes it over. */
  editQuestion: (turn: Turn) => void;
  focusInput: () => void;
}

/**
 * Every click inside the transcript's messages, handled by delegation: links, code and picture
 * buttons, a turn's buttons (edit, copy, agent mode, ask again), a passage's ×, an error's buttons.
 */
export function delegateClicks(list: HTMLElement, clicks: TranscriptClicks): void {
  list.addEventListener('click', (event) => onClick(event, clicks));
  // Middle-click would otherwise try to open the link itself.
  list.addEventListener('auxclick', (event) => {
    if ((event.target as Element).closest('a')) event.preventDefault();
  });
}

function onClick(event: MouseEvent, clicks: TranscriptClicks): void {
  const target = event.target as Element;
  const link = target.closest('a');
  if (link) {
    // Never navigate: the host checks the scheme and asks before opening anything.
    event.preventDefault();
    const href = link.getAttribute('href') ?? '';
    const file = parseFileLinkHref(href);
    if (file) post({ type: 'openFile', ...file });
    else if (isSafeHref(href)) post({ type: 'openLink', href });
    return;
  }
  if (handleCodeAction(target, clicks.strings, clicks.announce)) return;
  const imageAction = target.closest<HTMLElement>('[data-image-action]');
  const fileId = imageAction?.closest<HTMLElement>('.reply-image')?.dataset.fileId;
  if (imageAction && fileId) {
    post(imageAction.dataset.imageAction === 'save' ? { type: 'saveImage', fileId } : { type: 'openImage', fileId });
    return;
  }
  // Which turn a button is on: the host acts on a reply only while it is still the last one.
  const turn = clicks.turnOf(target);
  const turnId = turn?.id;
  if (target.closest('[data-turn-action="edit"]') && turn?.role === 'user') {
    clicks.editQuestion(turn);
    return;
  }
  const copy = target.closest<HTMLButtonElement>('[data-turn-action="copy"]');
  if (copy && turnId) {
    post({ type: 'copyReply', turnId });
    showCopied(copy, clicks.strings);
    clicks.announce(clicks.strings.copied);
    return;
  }
  if (target.closest('[data-turn-action="agent"]') && turnId) {
    post({ type: 'doInAgentMode', turnId });
    return;
  }
  const sourceIndex = target.closest<HTMLElement>('.remove-source')?.dataset.sourceIndex;
  const source = turn?.sources?.[Number(sourceIndex)];
  if (sourceIndex !== undefined && turnId && source) {
    post({ type: 'removeSource', turnId, ...source });
    clicks.focusInput();
    return;
  }
  // Asking again replaces this reply, button and all: the input is where to go on from, not <body>.
  if (target.closest('[data-turn-action="regenerate"]')) {
    post({ type: 'regenerate', turnId });
    clicks.focusInput();
    return;
  }
  const errorAction = ErrorAction.safeParse(target.closest<HTMLElement>('[data-error-action]')?.dataset.errorAction);
  if (!errorAction.success) return;
  post({ type: 'errorAction', action: errorAction.data, turnId });
  if (errorAction.data === 'retry') clicks.focusInput();
}
