// Turns a finished answer into the chunk objects of a streamed reply, shaped as the contract shows:
// role only in the first delta, content in deltas of a few words, then a chunk with empty content,
// finish_reason and usage. Joining all delta contents gives back exactly the non-streamed content.
// A function call arrives whole in the one delta before the finish chunk, as the contract says.
import type { Usage } from '../usage';
import type { Answer } from './chat';

/** Words per delta: the real service sends a few tokens at a time. */
const WORDS_PER_DELTA = 3;

/** A finished answer with what the reply says about it. */
export interface ReplyInput extends Answer {
  usage: Usage;
  created: number;
  model: string;
}

/** Splits text into pieces of a few words each; leading whitespace stays with the following word. */
export function splitIntoDeltas(text: string): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) pieces.push(words.slice(i, i + WORDS_PER_DELTA).join(''));
  const trailing = text.slice(pieces.join('').length);
  if (pieces.length === 0) pieces.push(trailing);
  else pieces[pieces.length - 1] += trailing;
  return pieces;
}

/**
 * The previous contract's stream. A reasoning model's thoughts come first, in deltas of their own
 * (`reasoning_content`), then the answer.
 */
export function streamChunks(input: ReplyInput): object[] {
  const common = { created: input.created, model: input.model, object: 'chat.completion' };
  const thoughts = input.reasoning
    ? splitIntoDeltas(input.reasoning).map((piece) => ({ choices: [{ delta: { reasoning_content: piece }, index: 0 }], ...common }))
    : [];
  const pieces = input.functionCall ? [''] : splitIntoDeltas(input.content);
  const chunks: object[] = pieces.map((content, index) => {
    const delta: Record<string, unknown> = { content };
    if (input.functionCall) delta.function_call = input.functionCall;
    if (index === 0) {
      delta.role = 'assistant';
      if (input.functionsStateId) delta.functions_state_id = input.functionsStateId;
    }
    return { choices: [{ delta, index: 0 }], ...common };
  });
  chunks.push({
    choices: [{ delta: { content: '' }, index: 0, finish_reason: input.finishReason }],
    ...common,
    usage: input.usage,
  });
  return [...thoughts, ...chunks];
}

/** The previous contract's whole reply. */
export function v1Reply(input: ReplyInput): object {
  const message = {
    role: 'assistant',
    content: input.content,
    ...(input.reasoning ? { reasoning_content: input.reasoning } : {}),
    ...(input.functionCall ? { function_call: input.functionCall } : {}),
    ...(input.functionsStateId ? { functions_state_id: input.functionsStateId } : {}),
  };
  return {
    choices: [{ message, index: 0, finish_reason: input.finishReason }],
    created: input.created,
    model: input.model,
    object: 'chat.completion',
    usage: input.usage,
  };
}
