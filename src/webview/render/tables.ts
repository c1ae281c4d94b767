import type { WebviewStrings } from '../../shared/strings';
import { TABLE_SCROLL_CLASS } from './markdown';

/**
 * Makes the box each table of a reply scrolls in a named region in the tab order: a table wider
 * than the panel can then be scrolled with the arrow keys, and a screen reader says what got focus.
 * Done on the sanitized nodes, so the sanitizer never has to let `tabindex` or `role` through.
 * The box also says which way more of the table lies (`data-more`), so its edge fades there: a
 * scroll bar alone, thin and shown only on hover, gives no sign that a table goes on.
 */
export function makeTablesScrollable(root: ParentNode, strings: WebviewStrings): void {
  for (const box of root.querySelectorAll<HTMLElement>(`.${TABLE_SCROLL_CLASS}`)) {
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', strings.table);
    box.addEventListener('scroll', () => showMore(box), { passive: true });
    // The box's own size changes with the panel's; the table's, as a streamed one grows.
    sizes.observe(box);
    const table = box.querySelector('table');
    if (table) sizes.observe(table);
  }
}

/** One observer for every table: the box whose size (or whose table's) changed is measured again. */
const sizes = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const box = entry.target.closest<HTMLElement>(`.${TABLE_SCROLL_CLASS}`);
    if (box) showMore(box);
  }
});

/** A pixel of slack: zoomed views report fractional scroll positions. */
const SLACK = 1;

function showMore(box: HTMLElement): void {
  const left = box.scrollLeft > SLACK;
  const right = box.scrollLeft + box.clientWidth < box.scrollWidth - SLACK;
  const more = [left ? 'left' : '', right ? 'right' : ''].filter(Boolean).join(' ');
  if (more) box.dataset.more = more;
  else delete box.dataset.more;
}
