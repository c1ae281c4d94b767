import type { WebviewStrings } from '../shared/strings';
import { el, textButton } from './dom';
import { icon } from './icons';
import { format } from './webviewStrings';
import { post } from './vscodeApi';

/**
 * The two screens shown instead of an empty transcript: the welcome that asks for an
 * authorization key, and the empty state of a new chat with a few example prompts.
 */

export function welcomeScreen(strings: WebviewStrings): HTMLElement {
  const setKey = textButton(strings.actionSetKey, 'button primary', icon('key'));
  setKey.addEventListener('click', () => post({ type: 'errorAction', action: 'setKey' }));
  const studio = textButton(strings.actionOpenAccount, 'button secondary');
  studio.addEventListener('click', () => post({ type: 'errorAction', action: 'openAccount' }));
  return el(
    'section',
    { className: 'welcome', attrs: { 'aria-labelledby': 'welcome-title' } },
    el('div', { className: 'welcome-logo', attrs: { 'aria-hidden': 'true' } }, icon('sparkle')),
    el('h2', { text: strings.welcomeTitle, attrs: { id: 'welcome-title' } }),
    el('p', { text: strings.welcomeBody }),
    el('div', { className: 'welcome-actions' }, setKey, studio),
    el('p', { className: 'welcome-hint', text: strings.welcomeKeyStorage }),
  );
}

export function emptyState(strings: WebviewStrings, usePrompt: (text: string) => void): HTMLElement {
  const examples = [strings.example1, strings.example2, strings.example3].map((text) => {
    const button = el('button', { className: 'example', attrs: { type: 'button' } }, icon('comment'), el('span', { text }));
    button.addEventListener('click', () => usePrompt(text));
    return el('li', {}, button);
  });
  return el(
    'section',
    { className: 'empty-state', attrs: { 'aria-labelledby': 'empty-title' } },
    el('div', { className: 'welcome-logo', attrs: { 'aria-hidden': 'true' } }, icon('sparkle')),
    el('h2', { text: strings.emptyTitle, attrs: { id: 'empty-title' } }),
    el('p', { text: format(strings.emptyBody, addSelectionShortcut()) }),
    el('ul', { className: 'examples', attrs: { 'aria-label': strings.examplesLabel } }, ...examples),
    agentModeHint(strings),
  );
}

/** Which chat does what: this one answers, VS Code's agent changes files; with the way there. */
function agentModeHint(strings: WebviewStrings): HTMLElement {
  const open = textButton(strings.openAgentMode, 'link-button', icon('sparkle'));
  open.addEventListener('click', () => post({ type: 'openAgentMode' }));
  return el('p', { className: 'welcome-hint agent-hint' }, el('span', { text: strings.emptyAgentHint }), ' ', open);
}

/** The keys of Add Selection to GigaChat as the keyboard in use names them (package.json binds both). */
function addSelectionShortcut(): string {
  return /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘⌥G' : 'Ctrl+Alt+G';
}
