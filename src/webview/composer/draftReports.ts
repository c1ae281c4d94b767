import { post, saveState } from '../vscodeApi';

/** Long enough to skip most keystrokes, short enough that little is lost if the view closes. */
const DRAFT_DEBOUNCE_MS = 300;

/**
 * The input's draft, kept in the webview state at once and sent to the host after a pause in
 * typing, so it survives the view being hidden or reloaded. `text` reads the input as it is when
 * a report goes.
 */
export class DraftReports {
  private timer = 0;

  constructor(private readonly text: () => string) {}

  /** The user changed the draft: saved now, sent to the host once the typing pauses. */
  typed(): void {
    saveState({ draft: this.text(), draftAt: Date.now() });
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.flush(), DRAFT_DEBOUNCE_MS);
  }

  /** Sends the host the draft a pending report was to send, now. */
  flush(): void {
    if (this.timer === 0) return;
    window.clearTimeout(this.timer);
    this.timer = 0;
    post({ type: 'draft', text: this.text(), at: Date.now() });
  }

  /** The message was sent: the draft is empty now, here and at the host. */
  cleared(): void {
    window.clearTimeout(this.timer);
    this.timer = 0;
    const at = Date.now();
    saveState({ draft: '', draftAt: at });
    post({ type: 'draft', text: '', at });
  }

  /** The draft the host has, written at `at` (0: not known), is the one shown. */
  fromHost(text: string, at: number): void {
    saveState({ draft: text, draftAt: at });
  }
}
