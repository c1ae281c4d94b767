// What the suites on VS Code's own Chat view share: asking in it, reading its answers, and what the
// emulator was sent.
import * as vscode from 'vscode';
import { emulator, until, workbench } from './drivers';

export const RESPONSES = '.interactive-item-container.interactive-response';
/** The whole Chat view: VS Code shows a tool's confirmation above the input, not in the answer. */
export const SESSION = '.chat-controls-container';

export interface SentChat {
  model?: string;
  messages: { role: string; content: string; name?: string; function_call?: { name: string; arguments: Record<string, unknown> }; tools_state_id?: string }[];
  functions?: { name: string }[];
  stream?: boolean;
}

/** The chat requests the emulator received since its counts were reset, as sent. */
export async function chatRequests(): Promise<SentChat[]> {
  return (await emulator.requests()).filter((request) => request.endpoint === 'chat').map((request) => request.chat as SentChat);
}

/** Sends a message in a new chat of VS Code's Chat view, with a GigaChat model chosen in its picker. */
export async function askInChatView(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await askAgain(query);
}

/** Sends a message in the chat the Chat view shows, after the turns already in it. */
export async function askAgain(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, modelSelector: { vendor: 'gigachat', id: 'GigaChat' } });
}

let failures = 0;

/** Until the last answer in the Chat view contains `text`; returns it. */
export async function answerContaining(text: string, timeoutMs = 45_000): Promise<string> {
  let last = '';
  try {
    await until(
      async () => {
        last = (await workbench.texts(RESPONSES)).at(-1) ?? '';
        return last.includes(text);
      },
      `an answer in the Chat view containing "${text}"`,
      timeoutMs,
    );
  } catch (error) {
    await workbench.screenshot(`vscode-chat-failure-${++failures}`);
    throw new Error(`${(error as Error).message}; the view shows: ${(await workbench.texts(SESSION)).join(' | ')}`, { cause: error });
  }
  return last;
}

/** The question GigaChat's edit tool asks about a change to `label` (a notification), once it shows. */
export async function changeQuestion(label: string, timeoutMs = 20_000): Promise<string> {
  let found = '';
  await until(
    async () => {
      found = (await workbench.notifications()).find((text) => text.includes(`GigaChat wants to change ${label}`)) ?? '';
      return found !== '';
    },
    `the question about the change to ${label}`,
    timeoutMs,
  );
  return found;
}

/** Answers the question about the change to `label` with its button. */
export async function answerChange(label: string, button: 'Apply Change' | 'Discard'): Promise<void> {
  await changeQuestion(label);
  await workbench.notificationButton(`GigaChat wants to change ${label}`, button);
}
