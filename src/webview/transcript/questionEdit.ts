import type { WebviewStrings } from '../../shared/strings';
import { el, iconButton } from '../dom';
import { icon } from '../icons';
import { saveState } from '../vscodeApi';

/**
 * A question taken into the input by its Edit button: which one, the draft it took the place of,
 * and the bar above the input that says so (its button cancels). The edit is kept in the webview
 * state only, so a window reload brings it back (main.ts); the draft set aside stays the saved
 * draft meanwhile, as an edit is not a draft.
 */
export class QuestionEdit {
  readonly bar: HTMLElement;
  private editing?: { turnId: string; draft: string };

  constructor(strings: WebviewStrings, cancel: () => void) {
    const cancelButton = iconButton(icon('close'), strings.cancelEdit, 'cancel-edit');
    cancelButton.addEventListener('click', cancel);
    this.bar = el('div', { className: 'edit-bar' }, icon('edit'), el('span', { text: strings.editingQuestion }), cancelButton);
    this.bar.hidden = true;
  }

  get active(): boolean {
    return this.editing !== undefined;
  }

  /** The question being edited, if any. */
  get turnId(): string | undefined {
    return this.editing?.turnId;
  }

  /** Edits `turnId` in place of `draft`; an edit that takes over another keeps the draft that one set aside. */
  start(turnId: string, draft: string): void {
    this.editing = { turnId, draft: this.editing?.draft ?? draft };
    this.bar.hidden = false;
  }

  /** The draft changed at the host during the edit: it is the one the edit's end puts back. */
  setAsideDraft(text: string): void {
    if (this.editing) this.editing.draft = text;
  }

  /** Keeps the edit's text, as typed now, in the webview state. */
  save(text: string): void {
    if (this.editing) saveState({ editing: { turnId: this.editing.turnId, text, at: Date.now() } });
  }

  /** Ends the edit; returns the draft to put back (undefined: there was no edit). */
  end(): string | undefined {
    if (!this.editing) return undefined;
    const { draft } = this.editing;
    this.editing = undefined;
    this.bar.hidden = true;
    saveState({ editing: undefined });
    return draft;
  }
}
