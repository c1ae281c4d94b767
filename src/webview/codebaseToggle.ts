import { mentionsCodebase } from '../shared/codebaseTag';
import type { WebviewStrings } from '../shared/strings';
import { iconButton } from './dom';
import { icon } from './icons';

/**
 * The input's codebase context button: pressed, the next message is answered from the workspace
 * (the passages closest to it go with it). It shows pressed too while the message says
 * `#codebase`. Pressing it is for one message: it comes up again once the message is sent.
 */
export class CodebaseToggle {
  readonly button: HTMLButtonElement;
  private chosen = false;

  constructor(
    strings: WebviewStrings,
    private readonly input: HTMLTextAreaElement,
  ) {
    this.button = iconButton(icon('search'), strings.codebaseToggle, 'codebase-toggle');
    this.button.addEventListener('click', () => {
      this.chosen = !this.chosen;
      this.update();
      input.focus();
    });
    input.addEventListener('input', () => this.update());
    this.update();
  }

  /** Whether the message in the input is to be answered from the workspace. */
  get on(): boolean {
    return this.chosen || mentionsCodebase(this.input.value);
  }

  /** The message went: the next one is asked without codebase context unless asked for again. */
  reset(): void {
    this.chosen = false;
    this.update();
  }

  setEnabled(enabled: boolean): void {
    this.button.disabled = !enabled;
  }

  /** The input's text changed from outside (a draft restored, a question to edit). */
  update(): void {
    const on = this.on;
    this.button.setAttribute('aria-pressed', String(on));
    this.button.classList.toggle('is-on', on);
  }
}
