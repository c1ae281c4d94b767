import type { ConversationSummary } from '../shared/protocol';
import type { WebviewStrings } from '../shared/strings';
import { el, iconButton } from './dom';
import { icon } from './icons';
import { format, uiLocale } from './webviewStrings';
import { post } from './vscodeApi';

/**
 * The chat history overlay: a modal list of saved conversations, newest first, with a filter on
 * their titles as in a quick pick (type to narrow, arrows into the list, Enter opens the first
 * match). Open one with a click or Enter, delete one with its trash button. Escape or Close returns
 * focus to where it was.
 */
export class HistoryPanel {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private readonly filter: HTMLInputElement;
  private readonly dates = new Intl.DateTimeFormat(uiLocale(), { dateStyle: 'medium', timeStyle: 'short' });
  private returnFocus: HTMLElement | null = null;
  private currentId = '';

  constructor(private readonly strings: WebviewStrings) {
    const close = iconButton(icon('close'), strings.close, 'history-close');
    close.addEventListener('click', () => this.close());
    this.list = el('ul', { className: 'history-list', attrs: { id: 'history-list', 'aria-labelledby': 'history-title' } });
    this.status = el('p', { className: 'history-status', attrs: { role: 'status' } });
    this.filter = el('input', {
      className: 'history-filter',
      attrs: { type: 'search', placeholder: strings.historyFilter, 'aria-label': strings.historyFilter, 'aria-controls': 'history-list', spellcheck: 'false' },
    });
    this.filter.addEventListener('input', () => this.applyFilter());
    const dialog = el(
      'div',
      {
        className: 'history-dialog',
        attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'history-title' },
      },
      el('div', { className: 'history-header' }, el('h2', { text: strings.historyTitle, attrs: { id: 'history-title' } }), close),
      el('div', { className: 'history-filter-row' }, this.filter),
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
    this.filter.value = '';
    this.status.textContent = this.strings.historyLoading;
    this.status.hidden = false;
    this.filter.focus();
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
    const focusedRow = this.rows().findIndex((row) => row.parentElement?.contains(document.activeElement));
    const sorted = [...conversations].sort((a, b) => b.updatedAt - a.updatedAt);
    this.list.replaceChildren(...sorted.map((conversation) => this.item(conversation)));
    this.applyFilter();
    // Keep keyboard focus on the same row (the list is rebuilt); focus in the filter stays there.
    if (!this.isOpen || focusedRow === -1) return;
    const fresh = this.rows();
    (fresh[Math.min(focusedRow, fresh.length - 1)] ?? this.filter).focus();
  }

  /** The rows the filter lets through, top to bottom. */
  private rows(): HTMLElement[] {
    return [...this.list.querySelectorAll<HTMLElement>('.history-item:not([hidden]) .history-open')];
  }

  /** Shows the rows whose title holds every word typed, in any case, and says when none does. */
  private applyFilter(): void {
    const words = this.filter.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of this.list.querySelectorAll<HTMLElement>('.history-item')) {
      const title = (item.querySelector('.history-title')?.textContent ?? '').toLocaleLowerCase();
      item.hidden = !words.every((word) => title.includes(word));
      if (!item.hidden) shown++;
    }
    this.status.textContent =
      this.list.childElementCount === 0 ? this.strings.historyEmpty : shown === 0 ? format(this.strings.historyNoMatch, this.filter.value.trim()) : '';
    this.status.hidden = this.status.textContent === '';
  }

  private item(conversation: ConversationSummary): HTMLElement {
    const title = conversation.title.trim() || this.strings.untitled;
    const date = new Date(conversation.updatedAt);
    const open = el(
      'button',
      {
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
      const rows = this.rows();
      const index = rows.indexOf(open);
      item.remove();
      (rows[index + 1] ?? rows[index - 1] ?? this.filter).focus();
      this.applyFilter();
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
      const rows = this.rows();
      const index = rows.indexOf(document.activeElement as HTMLElement);
      if (index === -1 && document.activeElement !== this.filter) return;
      event.preventDefault();
      // Up from the first row goes back to the filter, as in a quick pick.
      const next = event.key === 'ArrowDown' ? Math.min(index + 1, rows.length - 1) : index - 1;
      (next >= 0 ? rows[next] : this.filter)?.focus();
      return;
    }
    if (event.key === 'Enter' && event.target === this.filter) {
      event.preventDefault();
      this.rows()[0]?.click();
      return;
    }
    if (event.key === 'Tab') {
      // Keep focus inside the dialog while it is open.
      const focusable = [...this.element.querySelectorAll<HTMLElement>('button:not([disabled]), input')].filter((node) => !node.closest('[hidden]'));
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
