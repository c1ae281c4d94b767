import type { ConversationSummary } from '../shared/protocol';
import type { WebviewStrings } from '../shared/strings';
import { el, iconButton } from './dom';
import { icon } from './icons';
import { format, uiLocale } from './strings';
import { post } from './vscodeApi';

/**
 * The chat history overlay: a modal list of saved conversations, newest first. Open one with a
 * click or Enter, delete one with its trash button. Escape or Close returns focus to where it was.
 */
export class HistoryPanel {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private readonly dates = new Intl.DateTimeFormat(uiLocale(), { dateStyle: 'medium', timeStyle: 'short' });
  private returnFocus: HTMLElement | null = null;
  private currentId = '';

  constructor(private readonly strings: WebviewStrings) {
    const close = iconButton(icon('close'), strings.close, 'history-close');
    close.addEventListener('click', () => this.close());
    this.list = el('ul', { className: 'history-list', attrs: { 'aria-labelledby': 'history-title' } });
    this.status = el('p', { className: 'history-status', attrs: { role: 'status' } });
    const dialog = el('div', {
      className: 'history-dialog',
      attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'history-title' },
    },
      el('div', { className: 'history-header' }, el('h2', { text: strings.historyTitle, attrs: { id: 'history-title' } }), close),
      this.status,
      this.list,
    );
    this.element = el('div', { className: 'history-overlay' }, dialog);
    this.element.hidden = true;
    // A click on the dimmed backdrop closes, like a click outside a VS Code quick pick.
    this.element.addEventListener('mousedown', (event) => {
      if (event.target === this.element) this.close();
    });
    this.element.addEventListener('keydown', (event) => this.onKeyDown(event));
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  open(currentConversationId: string): void {
    this.currentId = currentConversationId;
    if (!this.isOpen) this.returnFocus = document.activeElement as HTMLElement | null;
    this.element.hidden = false;
    this.list.replaceChildren();
    this.status.textContent = this.strings.historyLoading;
    this.status.hidden = false;
    this.element.querySelector<HTMLElement>('.history-close')?.focus();
    post({ type: 'showHistory' });
  }

  close(): void {
    if (!this.isOpen) return;
    this.element.hidden = true;
    this.returnFocus?.focus();
    this.returnFocus = null;
  }

  /** The host's answer to showHistory (also sent again after a deletion). */
  setConversations(conversations: readonly ConversationSummary[]): void {
    const rows = () => [...this.list.querySelectorAll<HTMLElement>('.history-open')];
    const focusedRow = rows().findIndex((row) => row.parentElement?.contains(document.activeElement));
    const sorted = [...conversations].sort((a, b) => b.updatedAt - a.updatedAt);
    this.list.replaceChildren(...sorted.map((conversation) => this.item(conversation)));
    this.status.textContent = sorted.length === 0 ? this.strings.historyEmpty : '';
    this.status.hidden = sorted.length > 0;
    if (!this.isOpen) return;
    // Keep keyboard focus on the same row (the list is rebuilt), or start on the first one.
    const fresh = rows();
    if (fresh.length > 0) fresh[Math.min(Math.max(focusedRow, 0), fresh.length - 1)].focus();
    else if (focusedRow !== -1) this.element.querySelector<HTMLElement>('.history-close')?.focus();
  }

  private item(conversation: ConversationSummary): HTMLElement {
    const title = conversation.title.trim() || this.strings.untitled;
    const date = new Date(conversation.updatedAt);
    const open = el('button', {
      className: 'history-open',
      attrs: {
        type: 'button',
        'aria-label': format(this.strings.openConversation, title),
        'aria-current': conversation.id === this.currentId ? 'true' : undefined,
      },
    },
      el('span', { className: 'history-title', text: title }),
      Number.isFinite(date.getTime())
        ? el('time', { className: 'history-date', text: this.dates.format(date), attrs: { datetime: date.toISOString() } })
        : null,
    );
    open.addEventListener('click', () => {
      post({ type: 'openConversation', conversationId: conversation.id });
      this.close();
    });
    const remove = iconButton(icon('trash'), format(this.strings.deleteConversation, title), 'history-delete');
    const item = el('li', { className: 'history-item' }, open, remove);
    remove.addEventListener('click', () => {
      post({ type: 'deleteConversation', conversationId: conversation.id });
      // Optimistic: the host confirms with a new list. Keep focus in the list for the keyboard.
      const next = (item.nextElementSibling ?? item.previousElementSibling)?.querySelector<HTMLElement>('.history-open');
      item.remove();
      if (next) next.focus();
      else this.element.querySelector<HTMLElement>('.history-close')?.focus();
      if (this.list.childElementCount === 0) {
        this.status.textContent = this.strings.historyEmpty;
        this.status.hidden = false;
      }
    });
    return item;
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      this.close();
      return;
    }
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const rows = [...this.list.querySelectorAll<HTMLElement>('.history-open')];
      const index = rows.indexOf(document.activeElement as HTMLElement);
      if (index === -1 && rows.length === 0) return;
      event.preventDefault();
      const next = event.key === 'ArrowDown' ? Math.min(index + 1, rows.length - 1) : Math.max(index - 1, 0);
      rows[next]?.focus();
      return;
    }
    if (event.key === 'Tab') {
      // Keep focus inside the dialog while it is open.
      const focusable = [...this.element.querySelectorAll<HTMLElement>('button:not([disabled])')];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  }
}
