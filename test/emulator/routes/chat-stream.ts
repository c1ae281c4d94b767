// Turns a finished answer into the chunk objects of a streamed reply, shaped as the contract shows:
// role only in the first delta, content in deltas of a few words, then a chunk with empty content,
// finish_reason and usage. Joining all delta contents gives back exactly the non-streamed content.
// A function call arrives whole in the one delta before the finish chunk, as the contract says.
import type { FunctionCall } from '../function-calls';
import type { Usage } from '../usage';

/** Words per delta: the real service sends a few tokens at a time. */
const WORDS_PER_DELTA = 3;

export interface StreamInput {
  content: string;
  finishReason: string;
  usage: Usage;
  created: number;
  model: string;
  functionsStateId: string | undefined;
  functionCall?: FunctionCall;
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

export function streamChunks(input: StreamInput): object[] {
  const common = { created: input.created, model: input.model, object: 'chat.completion' };
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
  return chunks;
}
