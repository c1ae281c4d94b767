import { applyChunk, chatStreamWithinContext, type ChatReply, type ServiceClient } from '../../core';
import type { ChatSettings } from './chatDependencies';
import type { Conversation, StoredTurn } from './conversationStore';
import type { QuestionAttachments } from './pictureUploads';
import { wireMessages } from './wireMessages';

/**
 * Writes the model's answer to `conversation` into its reply turn `assistant`: sends what the model
 * reads (the settings' model and system prompt, the conversation within the model's context, the
 * questions' pictures by their uploaded file ids) and
 * fills the turn as the reply streams: its text (`onText` follows each piece), then its finish
 * reason and token usage. A failure is thrown, with the text that arrived kept in the turn.
 */
export async function writeReply(
  client: Pick<ServiceClient, 'chatStream'>,
  conversation: Conversation,
  assistant: StoredTurn,
  signal: AbortSignal,
  settings: ChatSettings,
  onText: () => void,
  attachments?: QuestionAttachments,
): Promise<void> {
  const wire = wireMessages(conversation, assistant, settings.systemPrompt, attachments);
  const stream = chatStreamWithinContext(
    client,
    {
      model: settings.model,
      messages: wire.messages,
      temperature: settings.temperature,
      max_tokens: settings.maxTokens,
      builtInTools: ['image_generate'], // lets the model draw
    },
    { signal, sessionId: conversation.sessionId },
    (dropped) => {
      // Later replies start there too: they would not fit either, and the cached prefix stays the same.
      conversation.contextFrom = wire.sent[dropped].id;
      assistant.omittedMessages = wire.omitted + dropped;
    },
  );
  let reply: ChatReply = { content: '' };
  try {
    for await (const chunk of stream) {
      reply = applyChunk(reply, chunk);
      assistant.content = reply.content;
      onText();
    }
    assistant.status = 'done';
    assistant.finishReason = reply.finishReason;
  } finally {
    // Usage comes with the last event: a reply cut off after it still shows what it cost.
    const usage = reply.usage;
    if (usage)
      assistant.usage = {
        promptTokens: usage.prompt_tokens,
        completionTokens: usage.completion_tokens,
        totalTokens: usage.total_tokens,
        precachedTokens: usage.precached_prompt_tokens,
      };
  }
}
