// Test-side wrappers for what the outer runner does in the browser and to the emulator, so the
// tests read like what a person does: type, press Enter, wait for the reply.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { callOuter } from './outer';
import type { SentChat } from '../emulator/types';

export const EXTENSION_ID = 'gigachat-vscode.gigachat';

export const chatView = {
  type: (text: string) => callOuter('webview', { action: 'type', text }),
  press: (key: string, selector?: string) => callOuter('webview', { action: 'press', key, selector }),
  click: (selector: string) => callOuter('webview', { action: 'click', selector }),
  texts: (selector: string) => callOuter<string[]>('webview', { action: 'text', selector }),
  /** The text of every match, rendered on screen or not (`texts` is empty for turns scrolled far out of view). */
  textContents: (selector: string) => callOuter<string[]>('webview', { action: 'textContent', selector }),
  count: (selector: string) => callOuter<number>('webview', { action: 'count', selector }),
  inputValue: () => callOuter<string>('webview', { action: 'inputValue' }),
  attributes: (selector: string, name: string) => callOuter<(string | null)[]>('webview', { action: 'attribute', selector, name }),
  scrollTo: (selector: string, top: number) => callOuter('webview', { action: 'scrollTo', selector, top }),
  properties: <T>(selector: string, name: string) => callOuter<T[]>('webview', { action: 'property', selector, name }),
  waitFor: (selector: string, state: 'visible' | 'attached' | 'hidden' = 'visible', timeoutMs?: number) =>
    callOuter('webview', { action: 'waitFor', selector, state, timeoutMs }),
  screenshot: (name: string) => callOuter('webview', { action: 'screenshot', name }),
  /** How each match is laid out: its scrolling and visible widths, and the words of its text drawn split across two lines. */
  layout: (selector: string) => callOuter<{ scrollWidth: number; clientWidth: number; splitWords: string[] }[]>('webview', { action: 'layout', selector }),
  waitForText: (selector: string, text: string, timeoutMs?: number) => callOuter('webview', { action: 'waitForText', selector, text, timeoutMs }),
  /** Starts a new chat and waits until its transcript is empty (the view redraws when the host answers). */
  async newChat(): Promise<void> {
    await this.click('button[aria-label="New chat"]');
    await this.waitFor('.turn', 'hidden');
  },
  /** Sends a message the way a person does, and waits until the reply has finished. */
  async ask(text: string): Promise<void> {
    const before = await this.count('.turn-assistant');
    await this.type(text);
    await this.press('Enter');
    await this.waitForReply(before);
  },
  /** Edits the `nth` question (from 0) to say `text`, sends the edit, and waits until it shows. */
  async editQuestion(nth: number, text: string): Promise<void> {
    await this.click(`.turn-user >> nth=${nth} >> .edit-question`);
    await this.press('Control+A');
    await this.press('Backspace');
    await this.type(text);
    await this.press('Enter');
    await this.waitForText('.turn-user', text);
  },
  /** Until a reply beyond the first `after` has finished streaming. */
  waitForReply: (after: number) => callOuter('webview', { action: 'waitForReply', after }),
  /** Pastes a file into the chat input: its bytes (base64), or `size` bytes of zeros. */
  pastePicture: (file: { name: string; type: string; base64?: string; size?: number }) => callOuter('webview', { action: 'pastePicture', ...file }),
  /** Posts arbitrary values to the extension host from inside the chat page, past its typed API. */
  postRaw: (messages: unknown[]) => callOuter<number>('webview', { action: 'postRaw', messages }),
};

export const workbench = {
  quickInput: (text: string) => callOuter('workbench', { action: 'quickInput', text }),
  quickInputMessage: (waitMs = 0) => callOuter<string>('workbench', { action: 'quickInputMessage', waitMs }),
  press: (key: string) => callOuter('workbench', { action: 'press', key }),
  /** Types into whatever has the focus, key by key. */
  typeText: (text: string) => callOuter('workbench', { action: 'typeText', text }),
  notifications: () => callOuter<string[]>('workbench', { action: 'notifications' }),
  /** The links in the notifications' messages (`text -> target`): VS Code makes them of `[text](command:…)`. */
  notificationLinks: () => callOuter<string[]>('workbench', { action: 'notificationLinks' }),
  /** Clicks the button `label` of the notification whose text contains `message`. */
  notificationButton: (message: string, label: string) => callOuter('workbench', { action: 'notificationButton', message, label }),
  notificationButtons: () => callOuter<string[]>('workbench', { action: 'notificationButtons' }),
  /** The open quick pick's rows as screen readers hear them (label, description, detail), once its title contains `title`. */
  quickPickRows: (options: { title?: string; min?: number; timeoutMs?: number } = {}) =>
    callOuter<string[]>('workbench', { action: 'quickPickRows', min: 1, ...options }),
  /** Closes the open quick input with Escape, and waits until it is gone. */
  closeQuickInput: () => callOuter('workbench', { action: 'closeQuickInput' }),
  quickInputFocus: () => callOuter('workbench', { action: 'quickInputFocus' }),
  quickPickButton: (label: string) => callOuter('workbench', { action: 'quickPickButton', label }),
  /** The text of a status bar item ('' when it is hidden), e.g. `gigachat-vscode.gigachat.gigachat.searchIndex`. */
  statusBarText: (id: string) => callOuter<string>('workbench', { action: 'statusBarText', id }),
  /** Picks a file in the open file dialog (code-server's is a quick input) by typing its path. */
  chooseFile: (path: string) => callOuter('workbench', { action: 'chooseFile', path }),
  /** Whether a webview (a Markdown preview…) shows a heading with this text near its top, waiting for it a while. */
  headingInView: (text: string) => callOuter<{ inView: boolean; headings: string[] }>('workbench', { action: 'headingInView', text }),
  /** The open modal dialog's text (message and detail); waits for it to appear. */
  dialogText: () => callOuter<string>('workbench', { action: 'dialogText' }),
  dialogButton: (name: string) => callOuter('workbench', { action: 'dialogButton', name }),
  /** The text of every match of a selector in the workbench's own page (VS Code's Chat view…), rendered on screen. */
  texts: (selector: string) => callOuter<string[]>('workbench', { action: 'texts', selector }),
  /** An attribute of every match in the workbench's own page (null where it is missing). */
  attributes: (selector: string, name: string) => callOuter<(string | null)[]>('workbench', { action: 'attributes', selector, name }),
  /** Clicks the first match of `selector` in the workbench's own page. */
  click: (selector: string) => callOuter('workbench', { action: 'click', selector }),
  /** Clicks the first button within `selector` whose accessible name contains `name`. */
  clickButton: (selector: string, name: string) => callOuter('workbench', { action: 'clickButton', selector, name }),
  screenshot: (name: string) => callOuter('screenshot', { name }),
};

/**
 * A README picture in both colour themes, `<name>-dark` then `<name>-light`, whatever theme the
 * window had (an isolated run starts in the browser's light one); the theme is then put back.
 * `take` saves a screenshot under the name it is given, once the workbench has switched, and the
 * chat view too when the picture shows it.
 */
export async function screenshotInBothThemes(name: string, take: (name: string) => Promise<unknown>, showsChatView = false): Promise<void> {
  const config = vscode.workspace.getConfiguration('workbench');
  const before = config.inspect<string>('colorTheme')?.globalValue;
  const switched = async (light: boolean) => {
    const [classes] = await workbench.attributes('.monaco-workbench', 'class');
    if ((classes ?? '').split(/\s+/).includes('vs') !== light) return false;
    return !showsChatView || (await chatView.count(light ? 'body.vscode-light' : 'body.vscode-dark')) > 0;
  };
  try {
    for (const [theme, light] of [
      ['Default Dark Modern', false],
      ['Default Light Modern', true],
    ] as const) {
      await config.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
      await until(() => switched(light), `the ${theme} theme`);
      await take(`${name}-${light ? 'light' : 'dark'}`);
    }
  } finally {
    await config.update('colorTheme', before, vscode.ConfigurationTarget.Global);
  }
}

/** The stand-in for the official download address of the root certificate (test/emulator/certificateDownloads.ts). */
export const certificateHost = {
  serve: (variant: 'genuine' | 'genuinePem' | 'impostor' | 'notCertificate' | 'refused') => callOuter('certificateHost', { method: 'serve', args: [variant] }),
  requests: () => callOuter<string[]>('certificateHost', { method: 'requests' }),
};

type Fault = Record<string, unknown> & { kind: string };
export const emulator = {
  inject: (fault: Fault, rule?: { endpoint?: string; times?: number }) => callOuter('emulator', { method: 'inject', args: [fault, rule] }),
  clearFaults: () => callOuter('emulator', { method: 'clearFaults' }),
  resetCounts: () => callOuter('emulator', { method: 'resetCounts' }),
  expireAllTokens: () => callOuter('emulator', { method: 'expireAllTokens' }),
  setOptions: (options: {
    latencyMs?: number;
    maxConcurrent?: number;
    tokenLifetimeMs?: number;
    contextTokens?: number;
    chatV2?: boolean;
    scopes?: string[];
    /** Streams per scope at once, as the service's quota (an individual's key: 1); `{}` for no limit. */
    streamsPerScope?: Record<string, number>;
  }) => callOuter('emulator', { method: 'setOptions', args: [options] }),
  /** Requests refused for their account's streams since the emulator started. */
  refusedForStreams: () => callOuter<number>('emulator', { method: 'refusedForStreams' }),
  count: (endpoint: string) => callOuter<number>('emulator', { method: 'count', args: [endpoint] }),
  requests: () =>
    callOuter<
      { endpoint: string; path: string; headers: Record<string, string>; body: string; contract?: 'v1' | 'v2'; chat?: SentChat; abandoned?: boolean }[]
    >('emulator', {
      method: 'requests',
    }),
  info: () => callOuter<{ authUrl: string; baseUrl: string; caPath: string; key: string }>('emulator', { method: 'info' }),
  /** Drops every connection and stops listening, as a crash would. */
  kill: () => callOuter('emulator', { method: 'kill' }),
  /** Listens again on the same port; the tokens issued before are forgotten. */
  restart: () => callOuter('emulator', { method: 'restart' }),
};

/** The product's "GigaChat" log channel as written to disk (VS Code writes it with a short delay). */
export const productLog = () => callOuter<string>('productLog');

/** The product's global storage folder (shared by every window), where a trusted root is kept. */
export const productStorage = () => callOuter<string>('productStorage');

/** The product's storage folder for the test workspace: conversations, pictures, the search index. */
export const productWorkspaceStorage = () => callOuter<string>('productWorkspaceStorage');

/**
 * Waits for what the first start shows without a key: the walkthrough with its title and its first
 * step's page (a heading of its markdown), and the notice offering a key with its buttons.
 */
export async function firstRunShown(expected: { walkthrough: string; page: string; notice: RegExp; buttons: string[] }): Promise<void> {
  await until(async () => (await workbench.texts('.gettingStartedContainer')).some((text) => text.includes(expected.walkthrough)), 'the walkthrough', 30_000);
  const { inView, headings } = await workbench.headingInView(expected.page);
  assert.ok(inView, `the first step's page; headings seen: ${headings.join(' | ')}`);
  // Read from the notification list: the toast may have gone by the time this looks.
  await vscode.commands.executeCommand('notifications.showList');
  await until(async () => (await workbench.notifications()).some((text) => expected.notice.test(text)), 'the notice offering a key');
  const buttons = await workbench.texts('.notifications-center .notification-list-item-buttons-container .monaco-button');
  for (const button of expected.buttons) assert.ok(buttons.includes(button), `the button ${button}; buttons: ${buttons.join(', ')}`);
}

/** Opens the chat view and waits until its page is up. */
export async function openChat(): Promise<void> {
  await vscode.commands.executeCommand('gigachat.openChat');
  await chatView.waitFor('textarea');
}

/** Every text the emulator was asked to embed since its counts were last reset, in order. */
export async function embeddedTexts(): Promise<string[]> {
  return (await emulator.requests()).filter((request) => request.endpoint === 'embeddings').flatMap((request) => JSON.parse(request.body).input as string[]);
}

/**
 * Starts a command that asks before sending the workspace's files to be indexed (a search, Rebuild
 * Search Index) and answers the question with `button`. Resolves the question's text, and the
 * command's run (which goes on: after Send and Index, to the search's results).
 */
export async function answerIndexingQuestion(
  button: 'Send and Index' | 'Show Files' | 'Cancel' | 'Отправить и проиндексировать',
  command: string,
  ...args: unknown[]
): Promise<{ question: string; done: Thenable<unknown> }> {
  const done = vscode.commands.executeCommand(command, ...args);
  const question = await workbench.dialogText();
  await workbench.dialogButton(button);
  return { question, done };
}

/** Stores the emulator's key through the real command and its input box, as a user does. */
export async function setKeyThroughCommand(key: string): Promise<void> {
  const done = vscode.commands.executeCommand('gigachat.setAuthorizationKey');
  await workbench.quickInput(key);
  await done;
}

/**
 * Makes sure the product has the emulator's key, so a suite does not depend on the suites before it
 * (run alone with --grep, or in a window with user data of its own). The chat view's welcome shows
 * while no key is set.
 */
export async function ensureKey(): Promise<void> {
  await openChat();
  if ((await chatView.count('.welcome')) > 0) await setKeyThroughCommand((await emulator.info()).key);
  await chatView.waitFor('.welcome', 'hidden');
}

export async function until(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
