import type { AttachmentChip } from '../shared/protocol';
import type { WebviewStrings } from '../shared/strings';
import { AttachmentChips } from './attachmentChips';
import { el } from './dom';
import { icon } from './icons';
import { post, saveState } from './vscodeApi';

/** Long enough to skip most keystrokes, short enough that little is lost if the view closes. */
const DRAFT_DEBOUNCE_MS = 300;
/** The send message's limit in the protocol. */
const MAX_MESSAGE_CHARS = 200_000;

/**
 * The input at the bottom: a textarea that grows with its text, and one button that is Send when
 * idle and Stop while a reply is being produced. Enter sends, Shift+Enter adds a line (except while
 * an input method is composing), Escape stops. The draft is kept in the webview state at once and
 * sent to the host (debounced) so it survives the view being hidden or reloaded. Code attached
 * from the editor shows as chips above it and goes with the next message.
 */
export class Composer {
  readonly element: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly button: HTMLButtonElement;
  private readonly attachments: AttachmentChips;
  private busy = false;
  private enabled = true;
  private draftTimer = 0;

  constructor(private readonly strings: WebviewStrings) {
    this.input = el('textarea', {
      className: 'input',
      attrs: {
        rows: '1',
        'aria-label': strings.inputLabel,
        placeholder: strings.inputPlaceholder,
        maxlength: String(MAX_MESSAGE_CHARS),
        spellcheck: 'true',
      },
    });
    this.button = el('button', { className: 'send-button', attrs: { type: 'button' } });
    this.attachments = new AttachmentChips(strings, () => this.focus(), () => this.updatePlaceholder());
    this.element = el('footer', { className: 'composer' },
      this.attachments.element,
      el('div', { className: 'composer-box' }, this.input, this.button));

    this.input.addEventListener('input', () => {
      this.resize();
      this.updateButton();
      this.saveDraft();
    });
    this.input.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.button.addEventListener('click', () => (this.busy ? this.stop() : this.send()));
    this.updateButton();
  }

  get value(): string {
    return this.input.value;
  }

  setDraft(text: string): void {
    this.input.value = text;
    saveState({ draft: text });
    this.resize();
    this.updateButton();
  }

  /** An example prompt was picked: put it in the input, ready to edit or send. */
  usePrompt(text: string): void {
    this.setDraft(text);
    this.saveDraft();
    this.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  setAttachments(chips: AttachmentChip[]): void {
    this.attachments.set(chips);
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.updateButton();
  }

  /** Without an authorization key there is nobody to talk to. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.input.disabled = !enabled;
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
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      if (!this.busy) this.send();
    } else if (event.key === 'Escape' && this.busy) {
      event.preventDefault();
      event.stopPropagation();
      this.stop();
    }
  }

  private send(): void {
    const text = this.input.value.trim();
    if (!text || this.busy || !this.enabled) return;
    const attachmentIds = this.attachments.ids;
    post(attachmentIds.length > 0 ? { type: 'send', text, attachmentIds } : { type: 'send', text });
    this.attachments.set([]); // sent with the message: the host uses them up too
    this.input.value = '';
    this.resize();
    this.updateButton();
    window.clearTimeout(this.draftTimer);
    saveState({ draft: '' });
    post({ type: 'draft', text: '' });
  }

  private stop(): void {
    post({ type: 'stop' });
  }

  private saveDraft(): void {
    const text = this.input.value;
    saveState({ draft: text });
    window.clearTimeout(this.draftTimer);
    this.draftTimer = window.setTimeout(() => post({ type: 'draft', text: this.input.value }), DRAFT_DEBOUNCE_MS);
  }

  /** Grows with the text up to the CSS max-height, then scrolls. CSSOM styles are allowed by the CSP. */
  private resize(): void {
    this.input.style.height = 'auto';
    this.input.style.height = `${this.input.scrollHeight}px`;
  }

  private updatePlaceholder(): void {
    if (!this.enabled) this.input.placeholder = this.strings.inputPlaceholderNoKey;
    else this.input.placeholder = this.attachments.ids.length > 0 ? this.strings.inputPlaceholderAttached : this.strings.inputPlaceholder;
  }

  private updateButton(): void {
    const label = this.busy ? this.strings.stop : this.strings.send;
    const swapped = this.button.classList.contains('is-stop') !== this.busy;
    const focused = document.activeElement === this.button; // read first: disabling may blur it
    this.button.replaceChildren(icon(this.busy ? 'stop' : 'send'));
    this.button.classList.toggle('is-stop', this.busy);
    this.button.setAttribute('aria-label', label);
    this.button.title = label;
    this.button.disabled = !this.busy && (!this.enabled || this.input.value.trim() === '');
    // A disabled button drops focus to <body>, and a Stop that became Send (or back) would act
    // differently on the next key press: the keyboard user goes on in the input instead.
    if (focused && (this.button.disabled || swapped)) this.focus();
  }
}
