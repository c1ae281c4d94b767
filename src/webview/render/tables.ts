import type { WebviewStrings } from '../../shared/strings';
import { TABLE_SCROLL_CLASS } from './markdown';

/**
 * Makes the box each table of a reply scrolls in a named region in the tab order: a table wider
 * than the panel can then be scrolled with the arrow keys, and a screen reader says what got focus.
 * Done on the sanitized nodes, so the sanitizer never has to let `tabindex` or `role` through.
 */
export function makeTablesScrollable(root: ParentNode, strings: WebviewStrings): void {
  for (const box of root.querySelectorAll<HTMLElement>(`.${TABLE_SCROLL_CLASS}`)) {
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', strings.table);
  }
}
