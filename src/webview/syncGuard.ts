import type * as z from 'zod';
import type { WebviewStrings } from '../shared/strings';
import { el, iconButton, textButton } from './dom';
import { icon } from './icons';
import { post } from './vscodeApi';

/** The view asks for the chat again at most this often: a host that keeps sending what it cannot read is not asked in a loop. */
const RESYNC_INTERVAL_MS = 10_000;

/**
 * Keeps the view in step with the host. A message that fails the view's check (the protocol's
 * schema) may leave it without part of the chat: the view says so where the user sees it, and asks
 * the host for the chat again (`resync`), which answers with a state that fits. When that fails
 * as well, or failures keep coming, it asks no more for a while: the notice says the chat still
 * cannot be shown, once, and offers the log.
 */
export class SyncGuard {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  private readonly logs: HTMLButtonElement;
  private askedAt = -Infinity;
  /** A fresh state was asked for and has not come yet. */
  private awaiting = false;
  /** The notice says the chat still cannot be shown: not said again until the next request. */
  private saidStill = false;

  constructor(private readonly strings: WebviewStrings) {
    this.text = el('span', { className: 'sync-notice-text' });
    this.logs = textButton(strings.actionOpenLogs, 'button secondary sync-notice-logs');
    this.logs.addEventListener('click', () => post({ type: 'errorAction', action: 'openLogs' }));
    const dismiss = iconButton(icon('close'), strings.dismiss, 'sync-notice-dismiss');
    dismiss.addEventListener('click', () => (this.element.hidden = true));
    this.element = el(
      'div',
      { className: 'sync-notice', attrs: { role: 'alert' } },
      icon('warning'),
      el('div', { className: 'sync-notice-body' }, this.text, this.logs),
      dismiss,
    );
    this.element.hidden = true;
  }

  /** A message from the host failed the view's check: says so, and asks for the chat again. */
  failed(raw: unknown, issues: readonly z.core.$ZodIssue[]): void {
    const described = issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join('.') || '(message)'}: ${issue.message}`)
      .join('; ');
    console.warn('[gigachat] the chat view could not read a message from the host:', described);
    if (this.ask(typeOf(raw), described)) this.show(this.strings.partNotShown, false);
    else if (!this.saidStill) {
      this.saidStill = true;
      this.show(this.strings.partStillNotShown, true);
    }
  }

  /**
   * The host spoke of a chat the view does not show (a turn for another conversation): the chat is
   * asked for again, without a notice, as nothing was lost that the state will not bring.
   */
  outOfStep(type: string, what: string): void {
    this.ask(type, what);
  }

  /** A state the view could read: the answer keeps the notice (it says what happened); any later one ends it. */
  stateShown(): void {
    if (!this.awaiting) this.element.hidden = true;
    this.awaiting = false;
  }

  private ask(failed: string, issues: string): boolean {
    const now = performance.now();
    if (now - this.askedAt < RESYNC_INTERVAL_MS) return false;
    this.askedAt = now;
    this.awaiting = true;
    this.saidStill = false;
    post({ type: 'resync', failed, issues: issues.slice(0, 400) });
    return true;
  }

  private show(text: string, offerLogs: boolean): void {
    this.text.textContent = text;
    this.logs.hidden = !offerLogs;
    this.element.hidden = false;
  }
}

/** The message's type as it said, when that is a plain word (the log shows it). */
export function typeOf(raw: unknown): string {
  const type = (raw as { type?: unknown } | null)?.type;
  return typeof type === 'string' && /^\w{1,40}$/.test(type) ? type : 'unknown';
}
