import * as vscode from 'vscode';
import { applyChunk, parseMediaReply, stableStreamingPrefix, type ChatMessage, type ChatReply } from '../../core';
import type { HostMessage, Turn } from '../../shared/protocol';
import type { ClientProvider } from '../clientProvider';
import { readSettings } from '../config';
import { describeError } from '../errors';
import type { Log } from '../log';
import { ConversationStore, newConversation, titleFrom, type Conversation, type StoredTurn } from './conversationStore';
import type { ImageStore } from './imageStore';
import { DeltaPacer } from './deltaPacer';

/** A user message, with the editor context that produced it (explain selection). */
export interface Prompt {
  text: string;
  contextLabel?: string;
  notice?: string;
}

/**
 * The chat's behaviour, apart from any view: the open conversation, sending, streaming the reply,
 * stop, regenerate, history. The view provider turns webview messages into calls here and
 * forwards what this posts.
 */
export class ChatController {
  private conversation: Conversation;
  private running?: AbortController;
  private post: (message: HostMessage) => void = () => undefined;
  private refreshView: () => Promise<void> = async () => undefined;

  constructor(
    private readonly clients: ClientProvider,
    private readonly store: ConversationStore,
    private readonly images: ImageStore,
    private readonly log: Log,
  ) {
    this.conversation = store.latest() ?? newConversation();
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get conversationId(): string {
    return this.conversation.id;
  }

  /** Connects the view: `post` sends one message, `refreshView` redraws it whole. */
  attach(post: (message: HostMessage) => void, refreshView: () => Promise<void>): void {
    this.post = post;
    this.refreshView = refreshView;
  }

  async viewTurns(): Promise<Turn[]> {
    return Promise.all(this.conversation.turns.map((turn) => this.toViewTurn(turn)));
  }

  async send(prompt: Prompt): Promise<void> {
    if (this.busy) return;
    const user: StoredTurn = { id: crypto.randomUUID(), role: 'user', content: prompt.text, status: 'done', contextLabel: prompt.contextLabel, notice: prompt.notice };
    if (this.conversation.turns.length === 0) this.conversation.title = titleFrom(prompt.contextLabel ? `${prompt.contextLabel}: ${prompt.text}` : prompt.text);
    this.conversation.turns.push(user);
    this.post({ type: 'turnAdded', turn: await this.toViewTurn(user) });
    await this.reply();
  }

  /** Asks again for the last reply: after an error, a stop, or for another answer. */
  async regenerate(): Promise<void> {
    if (this.busy) return;
    const last = this.conversation.turns.at(-1);
    if (last?.role === 'assistant') this.conversation.turns.pop();
    if (this.conversation.turns.at(-1)?.role !== 'user') return;
    await this.refreshView();
    await this.reply();
  }

  stop(): void {
    this.running?.abort();
  }

  async newChat(): Promise<void> {
    this.stop();
    if (this.conversation.turns.length > 0) this.conversation = newConversation();
  }

  async open(conversationId: string): Promise<boolean> {
    const found = this.store.get(conversationId);
    if (!found) return false;
    this.stop();
    this.conversation = found;
    return true;
  }

  async delete(conversationId: string): Promise<void> {
    if (conversationId === this.conversation.id) {
      this.stop();
      this.conversation = newConversation();
    }
    await this.store.delete(conversationId);
  }

  history() {
    return this.store.list();
  }

  /** Everything the view shows, except whether a key is set (the provider knows that). */
  async stateWithoutKey() {
    return { conversationId: this.conversation.id, turns: await this.viewTurns(), busy: this.busy };
  }

  private async reply(): Promise<void> {
    const conversation = this.conversation;
    const assistant: StoredTurn = { id: crypto.randomUUID(), role: 'assistant', content: '', status: 'streaming' };
    conversation.turns.push(assistant);
    conversation.updatedAt = Date.now();
    await this.store.save(conversation);
    this.post({ type: 'turnAdded', turn: await this.toViewTurn(assistant) });

    const running = new AbortController();
    this.running = running;
    this.post({ type: 'busy', busy: true });
    let reply: ChatReply = { content: '' };
    let shown = 0;
    // Each message costs the view a render: the pacer sends fewer, larger deltas as the reply grows.
    const deltas = new DeltaPacer(() => {
      // Hold back a half-received media tag so it never flashes as text; show a marker for a whole one.
      const visible = displayedReply(stableStreamingPrefix(assistant.content)).text;
      if (visible.length <= shown || conversation !== this.conversation) return shown;
      this.post({ type: 'delta', turnId: assistant.id, text: visible.slice(shown) });
      shown = visible.length;
      return shown;
    });
    try {
      const client = await this.clients.get();
      const settings = readSettings();
      const stream = client.chatStream(
        {
          model: settings.model,
          messages: this.messagesFor(conversation, assistant, settings.systemPrompt),
          temperature: settings.temperature,
          max_tokens: settings.maxTokens,
          function_call: 'auto', // lets the model call its built-in text-to-image function
        },
        { signal: running.signal, sessionId: conversation.sessionId },
      );
      for await (const chunk of stream) {
        reply = applyChunk(reply, chunk);
        assistant.content = reply.content;
        deltas.offer(reply.content.length);
      }
      assistant.status = 'done';
      assistant.finishReason = reply.finishReason;
      await this.downloadImages(assistant, running.signal);
    } catch (error) {
      const described = describeError(error, this.log);
      assistant.status = described.kind === 'cancelled' ? 'stopped' : 'error';
      if (assistant.status === 'error') assistant.error = described;
    } finally {
      deltas.cancel(); // the final state below carries all the text
      if (reply.usage) {
        const u = reply.usage;
        assistant.usage = { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, totalTokens: u.total_tokens, precachedTokens: u.precached_prompt_tokens };
      }
      this.running = undefined;
      conversation.updatedAt = Date.now();
      await this.store.save(conversation);
      if (conversation === this.conversation) this.post({ type: 'turnUpdated', turn: await this.toViewTurn(assistant) });
      this.post({ type: 'busy', busy: false });
    }
  }

  private async downloadImages(turn: StoredTurn, signal: AbortSignal): Promise<void> {
    const { pictureIds } = displayedReply(turn.content);
    if (pictureIds.length === 0) return;
    try {
      await this.images.download(await this.clients.get(), pictureIds, signal);
    } catch (error) {
      const described = describeError(error, this.log);
      turn.notice = vscode.l10n.t('The picture could not be downloaded: {0}', described.message);
    }
  }

  /** The wire history: system prompt first (the service requires it), then the finished turns. */
  private messagesFor(conversation: Conversation, pending: StoredTurn, systemPrompt: string): ChatMessage[] {
    const messages: ChatMessage[] = systemPrompt.trim() ? [{ role: 'system', content: systemPrompt.trim() }] : [];
    for (const turn of conversation.turns) {
      if (turn === pending) continue;
      // A failed reply, or an empty stopped one, is not part of what the model said.
      if (turn.role === 'assistant' && (turn.status === 'error' || turn.content === '')) continue;
      messages.push({ role: turn.role, content: turn.content });
    }
    return messages;
  }

  private async toViewTurn(turn: StoredTurn): Promise<Turn> {
    if (turn.role === 'user') return { ...turn };
    const { text, pictureIds } = displayedReply(turn.status === 'streaming' ? stableStreamingPrefix(turn.content) : turn.content);
    const images = pictureIds.length ? await this.images.attachments(pictureIds) : undefined;
    return { ...turn, content: text, images };
  }
}

/** U+FFFC marks where the i-th picture of a reply goes (the webview puts `images[i]` there). */
const PICTURE_MARKER = '\uFFFC';

/**
 * A reply as the view shows it: media tags replaced by markers, and the ids of the pictures for
 * them (images, and video covers: a video itself cannot play in the view). Applied to a growing
 * prefix it only ever appends, so streamed deltas and the final text agree.
 */
export function displayedReply(content: string): { text: string; pictureIds: string[] } {
  const pictureIds: string[] = [];
  const text = parseMediaReply(content)
    .parts.map((part) => {
      if (part.type === 'text') return part.text;
      const pictureId = part.type === 'image' ? part.fileId : part.coverFileId;
      if (!pictureId) return '';
      pictureIds.push(pictureId);
      return PICTURE_MARKER;
    })
    .join('');
  return { text, pictureIds };
}
