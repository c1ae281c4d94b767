// The current contract's reply (v2/chat/completions), shaped as the recorded production answers:
// `messages` of content parts instead of `choices`; a picture as a `files` part (target image)
// before the text; a web answer's sources in the text part's `inline_data`; the call's
// `tool_state_id` (spelled so in replies); usage as input/output tokens with cached ones apart.
// Streamed: named events, `response.message.delta` with text pieces to append, then
// `response.message.done` with finish reason and usage, and no [DONE]. A reasoning model's
// thoughts come first, as `role: "reasoning"` messages; a web search reports its tool run in a
// `response.tool.completed` event, and an event the client does not know comes before the end.
import type { Usage } from '../usage';
import { splitIntoDeltas, type ReplyInput } from './chat-stream';

function usageOf(usage: Usage): object {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { prompt_tokens: usage.prompt_tokens, cached_tokens: usage.precached_prompt_tokens },
    output_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
  };
}

function answerParts(input: ReplyInput, text: string, last: boolean): object[] {
  if (input.functionCall) return [{ function_call: input.functionCall }];
  const parts: object[] = [];
  if (input.pictureId) parts.push({ files: [{ id: input.pictureId, mime: 'image/jpeg', target: 'image' }] });
  parts.push({ text, ...(last && input.sources ? { inline_data: { images: [], sources: input.sources } } : {}) });
  return parts;
}

function assistant(input: ReplyInput, content: object[]): object {
  return { role: 'assistant', ...(input.functionsStateId ? { tool_state_id: input.functionsStateId } : {}), content };
}

export function v2Reply(input: ReplyInput): object {
  const reasoning = input.reasoning ? [{ role: 'reasoning', content: [{ text: input.reasoning }] }] : [];
  return {
    model: input.model,
    created_at: input.created,
    messages: [...reasoning, assistant(input, answerParts(input, input.content, true))],
    finish_reason: input.finishReason,
    usage: usageOf(input.usage),
  };
}

export function v2Events(input: ReplyInput): { chunks: object[]; eventNames: string[] } {
  const common = { model: input.model, created_at: input.created };
  const events: [string, object][] = [];
  for (const piece of input.reasoning ? splitIntoDeltas(input.reasoning) : []) {
    events.push(['response.message.delta', { ...common, messages: [{ role: 'reasoning', content: [{ text: piece }] }] }]);
  }
  if (input.sources) {
    const run = { role: 'reasoning', content: [{ tool_execution: { name: 'web_search', status: 'success', censored: false } }] };
    events.push(['response.tool.completed', { ...common, messages: [run] }]);
  }
  const pieces = input.functionCall ? [''] : splitIntoDeltas(input.content);
  pieces.forEach((piece, index) => {
    const parts = answerParts(input, piece, index === pieces.length - 1);
    const content = index === 0 ? parts : parts.filter((part) => !('files' in part));
    events.push(['response.message.delta', { ...common, messages: [assistant(input, content)] }]);
  });
  events.push(['response.provider_metadata', { x_headers: {} }]);
  events.push(['response.message.done', { ...common, finish_reason: input.finishReason, usage: usageOf(input.usage) }]);
  return { chunks: events.map(([, data]) => data), eventNames: events.map(([name]) => name) };
}
