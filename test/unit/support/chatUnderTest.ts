import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  asServiceError,
  ChatEngine,
  SavedConversations,
  type ChatClient,
  type ChatDependencies,
  type ChatSettings,
  type CodebaseSource,
  type Conversation,
  type RulesSource,
} from '../../../src/core';
import { ChatViewAdapter } from '../../../src/host/chat/chatViewAdapter';
import { ConversationStore } from '../../../src/host/chat/conversationStore';
import { panelCodebase } from '../../../src/host/chat/panelCodebase';
import { PendingFiles } from '../../../src/host/chat/pendingFiles';
import type { PictureStore } from '../../../src/host/chat/pictureStore';
import type { HostMessage, ImageAttachment, Turn, TurnError } from '../../../src/shared/protocol';
import { ManualClock } from './manualClock';
import { MemoryMemento } from './memoryMemento';
import { ScriptedClient } from './scriptedClient';

/** Pictures kept in memory (the real store writes through VS Code's file system). */
export class MemoryPictures implements PictureStore {
  readonly stored = new Map<string, Uint8Array>();
  async has(fileId: string): Promise<boolean> {
    return this.stored.has(fileId);
  }
  async keep(fileId: string, bytes: Uint8Array): Promise<void> {
    this.stored.set(fileId, bytes);
  }
  async read(fileId: string): Promise<Uint8Array | undefined> {
    return this.stored.get(fileId);
  }
  async download(client: Pick<ChatClient, 'fileContent'>, fileIds: readonly string[]): Promise<void> {
    for (const id of fileIds) if (!this.stored.has(id)) this.stored.set(id, (await client.fileContent(id)).bytes);
  }
  async attachments(fileIds: readonly string[]): Promise<ImageAttachment[]> {
    return fileIds.filter((id) => this.stored.has(id)).map((fileId) => ({ fileId, src: `memory:${fileId}` }));
  }
  async removeAllBut(kept: ReadonlySet<string>): Promise<number> {
    const unused = [...this.stored.keys()].filter((id) => !kept.has(id));
    for (const id of unused) this.stored.delete(id);
    return unused.length;
  }
}

/** What errors.ts says of a failure, without VS Code's localization: the kind, and the message as it came. */
export function describedAs(error: unknown): TurnError {
  const failure = asServiceError(error);
  return { kind: failure.kind, message: `Failed: ${failure.message}`, actions: failure.kind === 'cancelled' ? [] : ['retry'], requestId: failure.requestId };
}

/** The window's storage: the workspace state and the conversations' folder, kept across restarts. */
export class Storage {
  readonly state = new MemoryMemento();
  /** The picture store's folder, which a window opened again finds as it was. */
  readonly pictures = new MemoryPictures();
  private constructor(readonly folder: string) {}

  static async create(): Promise<Storage> {
    return new Storage(path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'gigachat-chat-')), 'conversations'));
  }

  /** The conversation as a window opened after a restart would read it. */
  reopened(id: string): Promise<Conversation | undefined> {
    return new ConversationStore(this.state, this.folder).get(id);
  }

  remove(): Promise<void> {
    return fs.rm(path.dirname(this.folder), { recursive: true, force: true });
  }
}

/**
 * The chat as a user meets it, with no VS Code: the engine on a real conversation store, a
 * service client whose replies the test writes, and the view as the adapter's messages draw it.
 */
export class ChatUnderTest {
  readonly client = new ScriptedClient();
  readonly clock = new ManualClock();
  readonly posted: HostMessage[] = [];
  readonly logged: string[] = [];
  readonly pictures: MemoryPictures;
  /** Codebase context as the test has it found (the real one searches the workspace in VS Code). */
  codebase: CodebaseSource = { find: () => Promise.reject(new Error('no codebase context in this test')) };
  /** The project's rules as the test has them found (the real ones are read from the workspace in VS Code). */
  rules: RulesSource = { find: async () => ({ text: '', files: [] }) };
  settings: ChatSettings = { model: 'GigaChat-2-Max', systemPrompt: 'Be brief.', temperature: 0.3, maxTokens: 500 };
  readonly engine: ChatEngine;
  /** The engine as the view provider reaches it, and what turns its events into the view's messages. */
  readonly adapter: ChatViewAdapter;
  /** What the view shows: the open conversation's turns and whether a reply is being written. */
  readonly view = { conversationId: '', turns: [] as Turn[], busy: false };

  constructor(readonly storage: Storage) {
    this.pictures = storage.pictures;
    const log = (line: string) => this.logged.push(line);
    const chat: ChatDependencies = {
      clients: { get: async () => this.client },
      pictures: this.pictures,
      readSettings: () => this.settings,
      describeError: describedAs,
      texts: {
        pictureNotDownloaded: (reason) => `No picture: ${reason}`,
        uploadingPictures: (count) => `Uploading ${count} files`,
        filesLeftOut: (count) => `${count} earliest files left out`,
        earlierPicturesLeftOut: (count, model) => `${model}: ${count} earlier pictures left out`,
        searchingWorkspace: () => 'Searching the workspace',
      },
      codebase: panelCodebase({ find: (question, room, signal) => this.codebase.find(question, room, signal) }),
      rules: { find: () => this.rules.find() },
      log: { debug: log, info: log, warn: log, error: log },
      clock: this.clock,
    };
    const saved = new SavedConversations(new ConversationStore(storage.state, storage.folder), this.pictures, chat.log, () => log('warned: not saved'));
    this.engine = new ChatEngine(chat, saved);
    this.adapter = new ChatViewAdapter(this.engine, this.pictures, this.clock, async ({ text }) => ({ text }));
    this.adapter.attach({ post: (message) => this.show(message), redraw: () => this.showState() });
  }

  /** The view (re)drawn whole, as the view provider does when the view opens or the chat changes. */
  async showState(): Promise<void> {
    const state = (await this.adapter.prepareState())();
    if (!state) return;
    this.view.conversationId = state.conversationId;
    this.view.turns = state.turns.map((turn) => ({ ...turn }));
    this.view.busy = state.busy;
  }

  /** The reply the model is writing now (the last request). */
  get reply() {
    const reply = this.client.replies.at(-1);
    if (!reply) throw new Error('no request was sent');
    return reply;
  }

  /** The view's turns as `role: text (status)`, what the user reads. */
  get transcript(): string[] {
    return this.view.turns.map((turn) => `${turn.role}: ${turn.content} (${turn.status})`);
  }

  /** Lets the pieces of text the model wrote reach the view (the pacer sends them at most every second). */
  async flush(): Promise<void> {
    await settle();
    this.clock.advance(1000);
  }

  private show(message: HostMessage): void {
    this.posted.push(message);
    const turns = this.view.turns;
    if (message.type === 'busy') this.view.busy = message.busy;
    else if (message.type === 'turnAdded' && message.conversationId === this.view.conversationId) turns.push({ ...message.turn });
    else if (message.type === 'turnUpdated') this.view.turns = turns.map((turn) => (turn.id === message.turn.id ? { ...message.turn } : turn));
    else if (message.type === 'delta') {
      const turn = turns.find((candidate) => candidate.id === message.turnId);
      if (turn) turn.content += message.text;
    }
  }
}

/** Lets every promise and file write under way settle (the store writes to disk). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Waits until `check` holds, or fails saying `what` was expected. */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 2000; waited += 5) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** A chat opened on fresh storage, with the files waiting for its next message (pictures, documents). */
export async function openChatWithFiles(): Promise<{ storage: Storage; chat: ChatUnderTest; pending: PendingFiles }> {
  const storage = await Storage.create();
  const chat = new ChatUnderTest(storage);
  await chat.showState();
  return { storage, chat, pending: new PendingFiles(storage.state, storage.pictures) };
}

/** `openChatWithFiles` before each test of a suite (the object is filled anew), its storage removed after it. */
export function useChatWithFiles(): { storage: Storage; chat: ChatUnderTest; pending: PendingFiles } {
  const opened = {} as { storage: Storage; chat: ChatUnderTest; pending: PendingFiles };
  beforeEach(async () => Object.assign(opened, await openChatWithFiles()));
  afterEach(() => opened.storage.remove());
  return opened;
}

/** The model writes `text` and ends the reply; settles once the chat is done with it. */
export async function answer(chat: ChatUnderTest, ended: Promise<void>, text: string): Promise<void> {
  chat.reply.write(text);
  chat.reply.end();
  await ended;
}
