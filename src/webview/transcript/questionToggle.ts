import { iconButton } from '../dom';
import { icon, type IconName } from '../icons';

/** What a toggle of the input asks for, and the tag that asks for it in the message's text. */
export interface ToggleKind {
  icon: IconName;
  label: string;
  /** What it does, at length: the tooltip and the button's description. */
  details: string;
  className: string;
  /** Whether the message's text asks for it itself (`#codebase`, `#web`). */
  mentioned: (text: string) => boolean;
}

/**
 * A toggle of the input: pressed, the next message is answered that way (from the workspace's
 * code; with a web search). It shows pressed too while the message carries its tag. Pressing it
 * is for one message: it comes up again once the message is sent.
 */
export class QuestionToggle {
  readonly button: HTMLButtonElement;
  private chosen = false;

  constructor(
    private readonly kind: ToggleKind,
    private readonly input: HTMLTextAreaElement,
  ) {
    this.button = iconButton(icon(kind.icon), kind.label, `question-toggle ${kind.className}`, kind.details);
    this.button.addEventListener('click', () => {
      this.chosen = !this.chosen;
      this.update();
      input.focus();
    });
    input.addEventListener('input', () => this.update());
    this.update();
  }

  /** Whether the message in the input is to be answered that way. */
  get on(): boolean {
    return this.chosen || this.kind.mentioned(this.input.value);
  }

  /** The message went: the next one is asked without it unless asked for again. */
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
