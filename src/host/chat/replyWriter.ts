import { applyChunk, chatStreamWithinContext, modelReasons, type BuiltInTool, type ChatReply, type ServiceClient } from '../../core';
import { mentionsPage } from '../../shared/webTag';
import type { ChatSettings } from './chatDependencies';
import type { Conversation, StoredTurn } from './storedTurns';
import type { QuestionAttachments } from './pictureUploads';
import { wireMessages } from './wireMessages';

/** The service's own tools a question may use: drawing always; searching the web and reading the pages it names when asked. */
function builtInToolsFor(question: StoredTurn | undefined): BuiltInTool[] {
  if (question?.role !== 'user' || !question.web) return ['image_generate'];
  return ['image_generate', 'web_search', ...(mentionsPage(question.content) ? (['url_content_extraction'] as const) : [])];
}

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
      ...(settings.reasoningEffort && modelReasons(settings.model) ? { reasoningEffort: settings.reasoningEffort } : {}),
      builtInTools: builtInToolsFor(wire.sent.at(-1)),
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
      assistant.reasoning = reply.reasoning;
      assistant.webSources = reply.sources;
      assistant.model = reply.model;
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
