import type { AttachmentChip, ImageAttachment } from '../../shared/protocol';
import type { WebviewStrings } from '../../shared/strings';
import { documentParts } from './documentChips';
import { el, iconButton } from '../dom';
import { icon } from '../icons';
import { format } from '../webviewStrings';
import { post } from '../vscodeApi';

/**
 * The code (Add Selection to GigaChat), pictures and documents attached to the next message, as chips
 * above the input: the file and lines (a picture: its thumbnail and name; a document: its name,
 * type and size), the full path in the tooltip, and a button that takes the piece out. The host
 * keeps the code and the files; the view shows what it says (a thumbnail loads from the host's
 * stored copy) and sends the ids of the chips with the message. Above the chips, why the files
 * the host just refused were not attached, until the chips change again.
 */
export class AttachmentChips {
  readonly element: HTMLUListElement;
  readonly refusals: HTMLElement;
  private chips: AttachmentChip[] = [];

  constructor(
    private readonly strings: WebviewStrings,
    /** Where focus goes when the last chip is removed with the keyboard. */
    private readonly focusInput: () => void,
    private readonly onChange: () => void,
  ) {
    this.element = el('ul', { className: 'attachments', attrs: { 'aria-label': strings.attachedToMessage, 'aria-live': 'polite' } });
    this.element.hidden = true;
    this.refusals = el('div', { className: 'attachment-refusals', attrs: { role: 'alert' } });
    this.refusals.hidden = true;
  }

  /** Why files were not attached, one line each; the chips already there stay. */
  showRefusals(messages: readonly string[]): void {
    this.refusals.replaceChildren(...messages.map((message) => el('p', {}, icon('warning'), el('span', { text: message }))));
    this.refusals.hidden = messages.length === 0;
  }

  get ids(): string[] {
    return this.chips.map((chip) => chip.id);
  }

  /** Whether every chip is code from the editor: no picture, no document. */
  get onlyCode(): boolean {
    return this.chips.every((chip) => !chip.picture && !chip.document);
  }

  set(chips: AttachmentChip[]): void {
    const focusedId = (document.activeElement?.closest('.attachment-chip') as HTMLElement | null)?.dataset.id;
    this.chips = chips;
    this.showRefusals([]); // the next attempt, a removal or the message sent: what was refused is old news
    this.element.replaceChildren(...chips.map((chip) => this.chip(chip)));
    this.element.hidden = chips.length === 0;
    if (focusedId) this.removeButton(focusedId)?.focus();
    this.onChange();
  }

  private chip(chip: AttachmentChip): HTMLLIElement {
    const remove = iconButton(icon('close'), format(this.strings.removeAttachment, chip.label), 'remove-attachment');
    remove.addEventListener('click', () => this.remove(chip.id));
    // A screen reader hears what each chip holds (code, a picture, a document) and its name, once.
    const kind = chip.picture ? this.strings.attachedPicture : chip.document ? this.strings.attachedDocument : this.strings.attachedCodeChip;
    const parts = chip.document
      ? documentParts({ name: chip.label, ...chip.document })
      : [chip.picture ? this.thumbnail(chip.picture) : icon('openEditor'), el('span', { className: 'chip-label', text: chip.label })];
    for (const part of parts.slice(0, 2)) part.setAttribute('aria-hidden', 'true');
    return el(
      'li',
      { className: 'attachment-chip', attrs: { title: chip.title, 'data-id': chip.id } },
      el('span', { className: 'sr-only', text: format(kind, chip.label) }),
      ...parts,
      remove,
    );
  }

  /** A picture's thumbnail; one the view cannot draw (TIFF, BMP) shows a picture icon instead. */
  private thumbnail(picture: ImageAttachment): Element {
    if (!('src' in picture)) return icon('image');
    const image = el('img', { className: 'chip-thumbnail', attrs: { src: picture.src, alt: '', draggable: 'false' } });
    image.addEventListener('error', () => image.replaceWith(icon('image')), { once: true });
    return image;
  }

  /** Gone from the view at once (the host confirms); the keyboard user lands on the next chip, or the input. */
  private remove(id: string): void {
    const index = this.chips.findIndex((chip) => chip.id === id);
    const hadFocus = this.element.contains(document.activeElement);
    post({ type: 'removeAttachment', id });
    this.set(this.chips.filter((chip) => chip.id !== id));
    if (!hadFocus) return;
    const next = this.chips[Math.min(index, this.chips.length - 1)];
    if (next) this.removeButton(next.id)?.focus();
    else this.focusInput();
  }

  private removeButton(id: string): HTMLButtonElement | null {
    return this.element.querySelector(`.attachment-chip[data-id="${CSS.escape(id)}"] .remove-attachment`);
  }
}
