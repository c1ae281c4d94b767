import type { WebviewStrings } from '../../shared/strings';
import { el } from '../dom';
import { icon } from '../icons';

/** The input's one button: Send when idle, Stop while a reply is being produced. */
export class SendButton {
  readonly element: HTMLButtonElement;

  constructor(
    private readonly strings: WebviewStrings,
    /** Where the keyboard user goes on when the button loses focus or changes under it: the input. */
    private readonly focusInput: () => void,
  ) {
    this.element = el('button', { className: 'send-button', attrs: { type: 'button' } });
  }

  /** Shows Stop while `busy`, else Send, disabled when there is nothing to send (`canSend`). */
  update(busy: boolean, canSend: boolean): void {
    const button = this.element;
    const label = busy ? this.strings.stop : this.strings.send;
    const swapped = button.classList.contains('is-stop') !== busy;
    const focused = document.activeElement === button; // read first: disabling may blur it
    button.replaceChildren(icon(busy ? 'stop' : 'send'));
    button.classList.toggle('is-stop', busy);
    button.setAttribute('aria-label', label);
    button.title = label;
    button.disabled = !busy && !canSend;
    // A disabled button drops focus to <body>, and a Stop that became Send (or back) would act
    // differently on the next key press: the keyboard user goes on in the input instead.
    if (focused && (button.disabled || swapped)) this.focusInput();
  }
}
