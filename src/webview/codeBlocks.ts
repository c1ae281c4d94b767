import type { WebviewStrings } from '../shared/strings';
import { el, iconButton } from './dom';
import { icon } from './icons';
import { post } from './vscodeApi';

/**
 * The toolbar on every code block of a reply (Copy, Insert at cursor, Open in new editor). The
 * buttons are added to freshly rendered fragments; clicks are handled once, by delegation, so the
 * blocks of a streaming reply can be re-rendered freely.
 */

type CodeAction = 'copy' | 'insert' | 'open';

const COPIED_FEEDBACK_MS = 1500;

export function addCodeToolbars(root: ParentNode, strings: WebviewStrings): void {
  for (const block of root.querySelectorAll<HTMLElement>('.code-block')) {
    if (block.firstElementChild?.classList.contains('code-toolbar')) continue;
    // A copy of one toolbar built once: a streaming reply adds one for every code block it shows.
    const toolbar = toolbarFor(strings).cloneNode(true) as HTMLElement;
    const label = toolbar.firstElementChild as HTMLElement;
    label.textContent = block.dataset.lang || strings.code;
    block.prepend(toolbar);
  }
}

const toolbars = new WeakMap<WebviewStrings, HTMLElement>();

function toolbarFor(strings: WebviewStrings): HTMLElement {
  let toolbar = toolbars.get(strings);
  if (!toolbar) {
    const actions = el(
      'div',
      { className: 'code-actions' },
      actionButton('copy', 'copy', strings.copy),
      actionButton('insert', 'insert', strings.insertAtCursor),
      actionButton('open', 'openEditor', strings.openInEditor),
    );
    toolbar = el('div', { className: 'code-toolbar' }, el('span', { className: 'code-lang' }), actions);
    toolbars.set(strings, toolbar);
  }
  return toolbar;
}

function actionButton(action: CodeAction, iconName: 'copy' | 'insert' | 'openEditor', label: string): HTMLButtonElement {
  const button = iconButton(icon(iconName), label, 'code-action');
  button.dataset.codeAction = action;
  return button;
}

/** The code exactly as the model wrote it in the fence (markdown-it keeps a final newline). */
export function codeOf(block: Element): string {
  const code = block.querySelector('pre > code')?.textContent ?? '';
  return code.endsWith('\n') ? code.slice(0, -1) : code;
}

/** Handles a click inside a reply; returns whether it was on a code block button. */
export function handleCodeAction(target: Element, strings: WebviewStrings, announce: (text: string) => void): boolean {
  const button = target.closest<HTMLButtonElement>('button[data-code-action]');
  const block = button?.closest<HTMLElement>('.code-block');
  if (!button || !block) return false;
  const code = codeOf(block);
  const language = block.dataset.lang || undefined;
  switch (button.dataset.codeAction as CodeAction) {
    case 'copy':
      post({ type: 'copyCode', code, language });
      showCopied(button, strings);
      announce(strings.copied);
      break;
    case 'insert':
      post({ type: 'insertCode', code, language });
      break;
    case 'open':
      post({ type: 'openCode', code, language });
      break;
  }
  return true;
}

const copiedTimers = new WeakMap<HTMLButtonElement, number>();

/** Shows on a copy button, for a moment, that it copied; then its icon and `label` again. */
export function showCopied(button: HTMLButtonElement, strings: WebviewStrings, label = strings.copy): void {
  window.clearTimeout(copiedTimers.get(button));
  button.replaceChildren(icon('check'));
  button.classList.add('copied');
  button.setAttribute('aria-label', strings.copied);
  button.title = strings.copied;
  copiedTimers.set(
    button,
    window.setTimeout(() => {
      button.replaceChildren(icon('copy'));
      button.classList.remove('copied');
      button.setAttribute('aria-label', label);
      button.title = label;
    }, COPIED_FEEDBACK_MS),
  );
}
