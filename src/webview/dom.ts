/**
 * Tiny DOM helpers. Everything the view shows is built with these (or parsed from sanitized
 * markdown), so text always goes through `textContent` and attributes through `setAttribute`.
 * Never `style=` attributes or inline handlers: the CSP allows neither.
 */

type Child = Node | string | null | undefined | false;

export interface ElementOptions {
  className?: string;
  text?: string;
  /** Attributes set verbatim (aria-*, role, type, data-*…). `undefined` skips one. */
  attrs?: Record<string, string | undefined>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.attrs) {
    for (const [name, value] of Object.entries(options.attrs)) {
      if (value !== undefined) element.setAttribute(name, value);
    }
  }
  if (options.text !== undefined) element.textContent = options.text;
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

let describedButtons = 0;

/**
 * A button that shows only an icon: the label goes to aria-label and the tooltip. With `details`,
 * the name stays short (a screen reader says it with every move) and the details are its tooltip
 * and its description (`aria-describedby`, read after a pause).
 */
export function iconButton(icon: SVGElement, label: string, className = '', details?: string): HTMLButtonElement {
  const button = el('button', {
    className: `icon-button ${className}`.trim(),
    attrs: { type: 'button', 'aria-label': label, title: details ?? label },
  });
  button.appendChild(icon);
  if (details) {
    const id = `button-details-${++describedButtons}`;
    button.appendChild(el('span', { text: details, attrs: { id, hidden: '' } }));
    button.setAttribute('aria-describedby', id);
  }
  return button;
}

/** A button with an icon and a visible label. */
export function textButton(label: string, className: string, icon?: SVGElement): HTMLButtonElement {
  const button = el('button', { className, attrs: { type: 'button' } });
  if (icon) button.appendChild(icon);
  button.appendChild(el('span', { text: label }));
  return button;
}
