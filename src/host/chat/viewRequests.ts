import * as vscode from 'vscode';
import type { HostMessage, ViewMessage } from '../../shared/protocol';
import { runErrorAction } from '../errors/errorActions';
import type { Log } from '../log';
import type { PendingAttachments } from './attachments';
import type { ChatViewAdapter, ConversationRequest } from './chatViewAdapter';
import type { ChatDraft } from './chatDraft';
import { CHAT_FOCUSED_CONTEXT } from './chatViewId';
import { copyCode, insertCode, openCode, openLink } from './codeBlockActions';
import type { ImageStore } from './imageStore';
import type { ModelCatalog } from './modelCatalog';
import { continueInAgentMode, openAgentMode } from './agentHandoff';
import type { FileIntake } from './fileIntake';
import type { PendingFiles } from './pendingFiles';
import { openWorkspaceFile } from './openFile';
import type { Prompt } from '../../core';
import { notify } from '../notify';

/** What the chat view's requests act on: the chat's parts, and the view provider's ways of answering the view. */
export interface ChatViewParts {
  readonly adapter: ChatViewAdapter;
  readonly models: ModelCatalog;
  readonly images: ImageStore;
  readonly log: Log;
  readonly attachments: PendingAttachments;
  readonly files: PendingFiles;
  readonly intake: FileIntake;
  readonly draft: ChatDraft;
  /** The prompts that arrived before the view was ready, oldest first; taking them empties the queue. */
  takeQueued(): Prompt[];
  post(message: HostMessage): void;
  sendState(): Promise<void>;
  /** The chips of the next message, and why the files just refused were. */
  postAttachments(refused?: readonly string[]): Promise<void>;
  newChat(): Promise<void>;
}

/**
 * Does what a message of the chat view (already checked against the protocol) asks of VS Code and
 * the panel; those about the conversation itself go to the view adapter (`isConversationRequest`).
 */
export async function answerViewRequest(message: Exclude<ViewMessage, ConversationRequest>, chat: ChatViewParts): Promise<void> {
  switch (message.type) {
    case 'ready':
      await chat.sendState();
      // Not awaited one by one: the first starts its reply, the rest wait for it (see ChatEngine.send).
      await Promise.all(chat.takeQueued().map((prompt) => chat.adapter.send(prompt)));
      return;
    case 'focused':
      return setChatFocused(message.focused);
    case 'resync':
      // The view says so to the user; the log says what it could not read, and it is sent the chat again.
      chat.log.warn(
        `The chat view could not read a message from the host (${safeWord(message.failed)}: ` +
          `${message.issues.replace(/[^\x20-\x7e]/g, '?')}); it is sent the chat again`,
      );
      return chat.sendState();
    case 'removeAttachment':
      await chat.attachments.remove(message.id);
      await chat.files.remove(message.id);
      return chat.postAttachments();
    case 'attachFile':
      return chat.postAttachments(await chat.intake.received(message.name, message.size, message.bytes));
    case 'pickFiles':
      return chat.postAttachments(await chat.intake.pick());
    case 'newChat':
      return chat.newChat();
    case 'openConversation':
      if (await chat.adapter.open(message.conversationId)) await chat.sendState();
      else if (!chat.adapter.history().some((conversation) => conversation.id === message.conversationId)) {
        void notify('warning', vscode.l10n.t('This conversation could not be opened: its file in the workspace storage is gone or damaged.'));
      }
      return;
    case 'selectModel':
      return chat.models.select(message.model);
    case 'errorAction':
      return runErrorAction(message.action, chat.log, () => chat.adapter.regenerate(message.turnId));
    case 'copyReply': {
      const text = chat.adapter.replyText(message.turnId);
      if (text?.trim()) await copyCode(text); // never empties the clipboard
      return;
    }
    case 'doInAgentMode':
      return continueInAgentMode(chat.adapter.exchange(message.turnId), chat.models.selected(), chat.log);
    case 'openAgentMode':
      return openAgentMode(undefined, chat.models.selected(), chat.log);
    case 'copyCode':
      return copyCode(message.code);
    case 'insertCode':
      return insertCode(message.code, message.language);
    case 'openCode':
      return openCode(message.code, message.language);
    case 'openLink':
      if (!(await openLink(message.href))) chat.log.warn('Ignored a link that is not http(s).');
      return;
    case 'openFile':
      return openWorkspaceFile(message);
    case 'openImage':
      return chat.images.open(message.fileId);
    case 'saveImage':
      return chat.images.saveAs(message.fileId);
    case 'draft':
      return chat.draft.save(message.text, message.at ?? 0);
  }
}

/** Keeps the context key of the keys bound to the chat (VS Code tracks no focus inside a webview view). */
export async function setChatFocused(focused: boolean): Promise<void> {
  await vscode.commands.executeCommand('setContext', CHAT_FOCUSED_CONTEXT, focused);
}

/** A message type the view names, as the log may show it. */
function safeWord(text: string): string {
  return /^\w{1,40}$/.test(text) ? text : 'a message';
}
