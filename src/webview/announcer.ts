import { el } from './dom';

/**
 * A visually hidden polite live region. A streaming reply is announced block by block as each
 * block completes, rather than by making the reply itself live: its tail is re-rendered on every
 * frame, which a screen reader would read again and again.
 */
export class Announcer {
  readonly element = el('div', { className: 'sr-only', attrs: { 'aria-live': 'polite', 'aria-atomic': 'false' } });

  /** Only the latest few messages stay in the DOM; older ones have been read already. */
  private static readonly KEEP = 20;

  announce(text: string): void {
    const clean = text.slice(0, 8000).replace(/\s+/g, ' ').trim();
    if (!clean) return;
    this.element.appendChild(el('p', { text: clean.length > 4000 ? `${clean.slice(0, 4000)}…` : clean }));
    while (this.element.childElementCount > Announcer.KEEP) this.element.firstElementChild?.remove();
  }

  clear(): void {
    this.element.replaceChildren();
  }
}
