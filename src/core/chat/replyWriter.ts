import { modelReasons } from '../../serviceFacts/modelFacts';
import type { ChatReply } from '../service/chatReply';
import type { ServiceClient } from '../service/client';
import type { BuiltInTool, ChatMessage } from '../service/schemas';
import { webSearchTools } from '../service/webSources';
import type { ChatSettings } from './chatDependencies';
import { streamReply } from './replyStream';
import type { Conversation, StoredTurn } from './storedTurns';
import type { SentConversation } from './sentConversation';

/** The service's own tools a question may use: drawing always; searching the web and reading the pages it names when asked. */
function builtInToolsFor(question: StoredTurn | undefined): BuiltInTool[] {
  return question?.role === 'user' && question.web ? ['image_generate', ...webSearchTools(question.content)] : ['image_generate'];
}

/** What a reply is asked with: the conversation sent (`sent`, `omitted`) as the service's messages, their files attached. */
export interface ReplyRequest extends Omit<SentConversation, 'messages'> {
  messages: ChatMessage[];
}

/**
 * Writes the model's answer to `conversation` into its reply turn `assistant`: sends what the model
 * reads (the settings' model and the messages of `wire`, through replyStream.ts, within the model's
 * context) and fills the
 * turn as the reply streams: its text (`onText` follows each piece), reasoning, sources and model,
 * then its finish reason and token usage. `onWait` hears when the request waits for the account's
 * stream and when it stops waiting. A failure is thrown, with the text that arrived kept in the turn.
 */
export async function writeReply(
  client: Pick<ServiceClient, 'chatStream'>,
  conversation: Conversation,
  assistant: StoredTurn,
  wire: ReplyRequest,
  signal: AbortSignal,
  settings: ChatSettings,
  onText: () => void,
  onWait?: (waiting: boolean) => void,
): Promise<void> {
  let reply: ChatReply = { content: '' };
  try {
    reply = await streamReply(
      client,
      {
        model: settings.model,
        messages: wire.messages,
        temperature: settings.temperature,
        max_tokens: settings.maxTokens,
        ...(settings.reasoningEffort && modelReasons(settings.model) ? { reasoningEffort: settings.reasoningEffort } : {}),
        builtInTools: builtInToolsFor(wire.sent.at(-1)),
      },
      { signal, sessionId: conversation.sessionId, onWait },
      (dropped) => {
        // Later replies start there too: they would not fit either, and the cached prefix stays the same.
        conversation.contextFrom = wire.sent[dropped].id;
        assistant.omittedMessages = wire.omitted + dropped;
      },
      (grown) => {
        reply = grown;
        assistant.content = reply.content;
        assistant.reasoning = reply.reasoning;
        assistant.webSources = reply.sources;
        assistant.model = reply.model;
        onText();
      },
    );
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
