import { LIMITS, type AttachmentChip } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { AttachmentChips } from './attachmentChips';
import { QuestionToggle } from '../transcript/questionToggle';
import { mentionsCodebase } from '../../shared/codebaseTag';
import { mentionsWeb } from '../../shared/webTag';
import { el } from '../dom';
import { FileInput } from './fileInput';
import { PictureModelWarning } from './pictureModelWarning';
import { QuestionRecall } from './questionRecall';
import { DraftReports } from './draftReports';
import { QuestionEdit } from '../transcript/questionEdit';
import { SendButton } from './sendButton';
import { post } from '../vscodeApi';

/** What the composer needs of the rest of the view. */
export interface ComposerHooks {
  /** The question being edited changed (none: `undefined`). */
  onEditing(turnId: string | undefined): void;
  /** The questions of the chat shown, oldest first. */
  questions(): readonly string[];
}

/**
 * The input at the bottom: a textarea that grows with its text, and one button that is Send when
 * idle and Stop while a reply is being produced. Enter sends, Shift+Enter adds a line (except while
 * an input method is composing), Escape stops. The draft is kept in the webview state at once and
 * sent to the host (debounced) so it survives the view being hidden or reloaded. Code attached
 * from the editor, and pictures and documents pasted, dropped or picked (`FileInput`), show as
 * chips above it and go with the next message; a file the host refused is explained above them.
 *
 * A question's Edit button puts the question in the input, under a bar that says so. Enter sends
 * the edit, also while a reply is written (that reply is one it replaces); Escape or the bar's
 * button cancels. Either way the draft set aside comes back: it stays the saved draft meanwhile,
 * as an edit is not a draft. The edit is kept in the webview state, so it survives a window reload.
 *
 * ↑ and ↓ in the empty input go through the chat's earlier questions (`QuestionRecall`); sending
 * one asks it again as a new message.
 */
export class Composer {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly button: SendButton;
  private readonly drafts: DraftReports;
  private readonly attachments: AttachmentChips;
  private readonly pictures: FileInput;
  private readonly pictureWarning: PictureModelWarning;
  private readonly codebase: QuestionToggle;
  private readonly web: QuestionToggle;
  private readonly editing: QuestionEdit;
  private readonly recall: QuestionRecall;
  private busy = false;
  private enabled = true;

  constructor(
    private readonly strings: WebviewStrings,
    private readonly hooks: ComposerHooks,
  ) {
    this.input = el('textarea', {
      className: 'input',
      attrs: {
        rows: '1',
        'aria-label': strings.inputLabel,
        placeholder: strings.inputPlaceholder,
        maxlength: String(LIMITS.draft),
        spellcheck: 'true',
      },
    });
    this.button = new SendButton(strings, () => this.focus());
    this.drafts = new DraftReports(() => this.input.value);
    this.recall = new QuestionRecall(() => hooks.questions());
    this.attachments = new AttachmentChips(
      strings,
      () => this.focus(),
      () => this.updatePlaceholder(),
    );
    this.editing = new QuestionEdit(strings, () => {
      this.cancelEdit();
      this.focus();
    });
    this.pictureWarning = new PictureModelWarning(strings, () => this.focus());
    const box = el('div', { className: 'composer-box' }, this.input);
    this.pictures = new FileInput(strings, box, this.input, () => this.enabled);
    this.codebase = new QuestionToggle(
      { icon: 'search', label: strings.codebaseToggle, details: strings.codebaseToggleDetails, className: 'codebase-toggle', mentioned: mentionsCodebase },
      this.input,
    );
    this.web = new QuestionToggle(
      { icon: 'globe', label: strings.webToggle, details: strings.webToggleDetails, className: 'web-toggle', mentioned: mentionsWeb },
      this.input,
    );
    // Shown under the text, as VS Code's Chat input has them, but before it in the page: Tab from
    // the input still goes straight to Send.
    box.prepend(el('div', { className: 'composer-tools' }, this.pictures.button, this.codebase.button, this.web.button));
    box.append(this.button.element);
    this.element = el(
      'footer',
      { className: 'composer' },
      this.editing.bar,
      this.attachments.refusals,
      this.pictureWarning.element,
      this.attachments.element,
      box,
    );

    this.input.addEventListener('input', () => {
      this.resize();
      this.updateButton();
      this.saveDraft();
    });
    this.input.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.button.element.addEventListener('click', () => (this.busy ? this.stop() : this.send()));
    this.updateButton();
  }

  get value(): string {
    return this.input.value;
  }

  /** The question being edited, if any. */
  get editingTurnId(): string | undefined {
    return this.editing.turnId;
  }

  /** A question's Edit button: its text goes into the input, the draft is set aside until the edit ends. */
  edit(turnId: string, text: string): void {
    if (!this.enabled) return;
    this.drafts.flush(); // the host gets the draft now: the input is about to hold the question
    this.editing.start(turnId, this.input.value);
    this.setText(text);
    this.saveEditing();
    this.focus();
    this.input.setSelectionRange(text.length, text.length);
    this.hooks.onEditing(turnId);
  }

  /** Leaves the edit, the question as it was, and puts the draft back. */
  cancelEdit(): void {
    const draft = this.editing.end();
    if (draft === undefined) return;
    this.setText(draft);
    this.hooks.onEditing(undefined);
  }

  /** The draft as the host has it, written at `at` (0: not known). */
  setDraft(text: string, at = 0): void {
    if (this.editing.active) {
      this.editing.setAsideDraft(text);
      return;
    }
    this.setText(text);
    this.drafts.fromHost(text, at);
  }

  /** An example prompt was picked: put it in the input, ready to edit or send. */
  usePrompt(text: string): void {
    this.cancelEdit();
    this.setDraft(text);
    this.saveDraft();
    this.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  setAttachments(chips: AttachmentChip[]): void {
    this.attachments.set(chips);
    this.pictureWarning.setHasPicture(chips.some((chip) => chip.picture));
  }

  /** The models offered and the one chosen: a picture waiting for a model that cannot see it is warned about. */
  setModels(models: readonly string[], model: string): void {
    this.pictureWarning.setModels(models, model);
  }

  /** Files the host refused: why, each, above the chips (those attached stay as they were). */
  showRefusals(messages: readonly string[]): void {
    this.attachments.showRefusals(messages);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.updateButton();
  }

  /** Without an authorization key there is nobody to talk to. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    if (!enabled) this.cancelEdit();
    this.input.disabled = !enabled;
    this.pictures.setEnabled(enabled);
    this.codebase.setEnabled(enabled);
    this.web.setEnabled(enabled);
    this.updatePlaceholder();
    this.updateButton();
  }

  focus(): void {
    this.input.focus();
  }

  /** Escape anywhere in the view stops the reply (the textarea handles its own). */
  stopIfBusy(): boolean {
    if (!this.busy) return false;
    this.stop();
    return true;
  }

  private onKeyDown(event: KeyboardEvent): void {
    // keyCode 229: the key went to an input method (older engines do not set isComposing).
    if (event.isComposing || event.keyCode === 229) return;
    const plainArrow = (event.key === 'ArrowUp' || event.key === 'ArrowDown') && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    const recalled =
      plainArrow && !this.editing.active ? this.recall.step(event.key === 'ArrowUp' ? 1 : -1, this.input.value, this.input.selectionStart) : undefined;
    if (recalled !== undefined) {
      event.preventDefault();
      this.setText(recalled);
      this.input.setSelectionRange(recalled.length, recalled.length);
      this.saveDraft();
    } else if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      this.send();
    } else if (event.key === 'Escape' && (this.busy || this.editing.active)) {
      event.preventDefault();
      event.stopPropagation();
      if (this.busy) this.stop();
      else this.cancelEdit();
    }
  }

  private send(): void {
    const text = this.input.value.trim();
    // While a reply is written only an edit goes: it replaces that reply (the host stops it first).
    if (!text || (this.busy && !this.editing.active) || !this.enabled) return;
    const attachmentIds = this.attachments.ids;
    const replaces = this.editing.turnId;
    post({
      type: 'send',
      text,
      ...(attachmentIds.length > 0 ? { attachmentIds } : {}),
      ...(replaces !== undefined ? { replaces } : {}),
      ...(this.codebase.on ? { codebase: true } : {}),
      ...(this.web.on ? { web: true } : {}),
    });
    this.attachments.set([]); // sent with the message: the host uses them up too
    this.codebase.reset();
    this.web.reset();
    if (this.editing.active) {
      this.cancelEdit(); // the draft set aside comes back; it was never replaced as the saved draft
      return;
    }
    this.setText('');
    this.drafts.cleared();
  }

  private stop(): void {
    post({ type: 'stop' });
  }

  private setText(text: string): void {
    this.input.value = text;
    this.codebase.update();
    this.web.update();
    this.resize();
    this.updateButton();
  }

  private saveDraft(): void {
    if (this.editing.active) return this.saveEditing();
    this.drafts.typed();
  }

  private saveEditing(): void {
    this.editing.save(this.input.value);
  }

  /** Grows with the text up to the CSS max-height, then scrolls. CSSOM styles are allowed by the CSP. */
  private resize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${this.input.scrollHeight}px`;
  }

  private updatePlaceholder(): void {
    if (!this.enabled) this.input.placeholder = this.strings.inputPlaceholderNoKey;
    else if (this.attachments.ids.length === 0) this.input.placeholder = this.strings.inputPlaceholder;
    // "The attached code" would misname a picture or a document.
    else this.input.placeholder = this.attachments.onlyCode ? this.strings.inputPlaceholderAttached : this.strings.inputPlaceholderAttachedFiles;
  }

  private updateButton(): void {
    this.button.update(this.busy, this.enabled && this.input.value.trim() !== '');
  }
}
