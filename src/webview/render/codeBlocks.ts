import type { WebviewStrings } from '../../shared/strings';
import { el, iconButton } from '../dom';
import { languageName } from './highlight';
import { icon } from '../icons';
import { format } from '../webviewStrings';
import { post } from '../vscodeApi';

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
    const language = block.dataset.lang ?? '';
    label.textContent = language || strings.code;
    // Each block's buttons named apart, so a screen reader's list of buttons tells them apart.
    const name = languageName(language);
    for (const button of toolbar.querySelectorAll<HTMLButtonElement>('button[data-code-action]')) {
      const labels = ACTION_LABELS[button.dataset.codeAction as CodeAction];
      setLabel(button, name ? format(strings[labels.named], name) : strings[labels.plain]);
    }
    block.prepend(toolbar);
  }
}

/** Each action's name, with the block's language and without (plain text, no language given). */
const ACTION_LABELS: Record<CodeAction, { named: keyof WebviewStrings; plain: keyof WebviewStrings }> = {
  copy: { named: 'copyLanguageCode', plain: 'copyCode' },
  insert: { named: 'insertLanguageCode', plain: 'insertCode' },
  open: { named: 'openLanguageCode', plain: 'openCode' },
};

function setLabel(button: HTMLButtonElement, label: string): void {
  button.setAttribute('aria-label', label);
  button.title = label;
}

const toolbars = new WeakMap<WebviewStrings, HTMLElement>();

function toolbarFor(strings: WebviewStrings): HTMLElement {
  let toolbar = toolbars.get(strings);
  if (!toolbar) {
    const actions = el(
      'div',
      { className: 'code-actions' },
      actionButton('copy', 'copy', strings.copyCode),
      actionButton('insert', 'insert', strings.insertCode),
      actionButton('open', 'openEditor', strings.openCode),
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

/** The name each copy button had before it said it copied. */
const copyLabels = new WeakMap<HTMLButtonElement, string>();

/** Shows on a copy button, for a moment, that it copied; then its icon and its own name again. */
export function showCopied(button: HTMLButtonElement, strings: WebviewStrings): void {
  window.clearTimeout(copiedTimers.get(button));
  if (!copyLabels.has(button)) copyLabels.set(button, button.getAttribute('aria-label') ?? '');
  const label = copyLabels.get(button) ?? '';
  button.replaceChildren(icon('check'));
  button.classList.add('copied');
  button.setAttribute('aria-label', strings.copied);
  button.title = strings.copied;
  copiedTimers.set(
    button,
    window.setTimeout(() => {
      button.replaceChildren(icon('copy'));
      button.classList.remove('copied');
      setLabel(button, label);
    }, COPIED_FEEDBACK_MS),
  );
}
