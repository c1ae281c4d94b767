import { LIMITS, type Turn } from '../../shared/protocol';
import { ACTION_LABELS, type WebviewStrings } from '../../shared/strings';
import { el } from '../dom';
import { icon, type IconName } from '../icons';
import { format } from '../webviewStrings';

/** What a turn's text needs: the view's strings (whose `format` writes numbers the display language's way). */
export interface TurnText {
  strings: WebviewStrings;
}

/** Why the reply ended, when that is worth saying: stopped, cut off, filtered, interrupted, or failed. */
export function turnNotes(turn: Turn, { strings }: TurnText): HTMLElement {
  const notes = el('div', { className: 'turn-notes' });
  if (turn.fullLength) notes.appendChild(cutNote(strings, 'reply', turn.content.length, turn.fullLength));
  if (turn.moreImages) notes.appendChild(note('info', format(strings.morePictures, turn.moreImages, LIMITS.imagesPerTurn), 'note-more-pictures'));
  if (turn.omittedMessages) notes.appendChild(note('info', format(strings.contextShortened, turn.omittedMessages), 'note-info'));
  if (turn.status === 'stopped') notes.appendChild(note('stop', strings.stopped, 'note-stopped'));
  if (turn.status !== 'streaming' && turn.finishReason === 'length') notes.appendChild(note('warning', strings.finishLength, 'note-warning'));
  if (turn.status !== 'streaming' && turn.finishReason === 'blacklist') notes.appendChild(note('info', strings.finishBlacklist, 'note-info'));
  if (turn.status !== 'streaming' && turn.finishReason === 'error') notes.appendChild(note('warning', strings.finishError, 'note-warning'));
  // What went wrong after the text arrived (a picture that could not be downloaded).
  if (turn.notice) notes.appendChild(note('warning', turn.notice, 'note-warning'));
  // What arrived before the failure stays, and says it is only part of the reply.
  if (turn.status === 'error' && turn.content) notes.appendChild(note('warning', strings.replyIncomplete, 'note-incomplete'));
  if (turn.status === 'error' && turn.error) notes.appendChild(errorNote(turn.error, strings));
  return notes;
}

/** The reply's error: what happened, the buttons that fix it (the first one primary), and the service's request id under Details. */
function errorNote(error: NonNullable<Turn['error']>, strings: WebviewStrings): HTMLElement {
  return el(
    'div',
    { className: `turn-error error-${error.kind.replace(/[^\w-]/g, '')}` },
    icon('error', 'icon error-icon'),
    el(
      'div',
      { className: 'error-content' },
      el('div', { className: 'error-message', text: error.message }),
      error.actions.length > 0
        ? el(
            'div',
            { className: 'error-actions' },
            ...error.actions.map((action, index) => {
              const button = el('button', {
                className: index === 0 ? 'button primary' : 'button secondary',
                text: strings[ACTION_LABELS[action]],
                attrs: { type: 'button', 'data-error-action': action },
              });
              if (action === 'retry') waitForRetry(button, error.retryAt, strings);
              return button;
            }),
          )
        : null,
      // For a support request, not for reading: folded under Details, selectable once opened.
      error.requestId
        ? el(
            'details',
            { className: 'error-details' },
            el('summary', { text: strings.errorDetails }),
            el('div', { className: 'request-id', text: format(strings.requestId, error.requestId) }),
          )
        : null,
    ),
  );
}

/**
 * The service asked to wait until `retryAt`: Retry is disabled until then (a request sooner would
 * be refused again), and says when it becomes available.
 */
function waitForRetry(button: HTMLButtonElement, retryAt: number | undefined, strings: WebviewStrings): void {
  const wait = (retryAt ?? 0) - Date.now();
  if (wait <= 0) return;
  button.disabled = true;
  button.title = format(strings.retryAvailableAt, new Date(retryAt!).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
  window.setTimeout(() => {
    button.disabled = false;
    button.removeAttribute('title');
  }, wait);
}

/** A text shown cut: how much of it, and where to get the rest. */
export function cutNote(strings: WebviewStrings, of: 'reply' | 'question', shown: number, whole: number): HTMLElement {
  return note('info', of === 'reply' ? format(strings.replyCut, shown, whole) : format(strings.questionCut, shown, whole), 'note-cut');
}

function note(iconName: IconName, text: string, className: string): HTMLElement {
  return el('div', { className: `turn-note ${className}` }, icon(iconName), el('span', { text }));
}
