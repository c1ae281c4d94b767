// POST /api/v1/embeddings. Items come back with their index but in shuffled order on purpose:
// the contract says to order by index, never by position, and this makes a client that does
// otherwise fail at once. Batch limits answer 413 so split-and-retry logic can be exercised.
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODELS, QUERY_INSTRUCTIONS } from '../constants';
import { isRecord, json, modelError, parseJson, type Reply } from '../http';
import type { Random } from '../random';
import type { RouteContext } from '../state';
import { characters, estimateTokens } from '../usage';
import { embed } from '../vectors';

/** Fisher–Yates with the seeded PRNG; never the identity for two or more items. */
function shuffledIndexes(count: number, random: Random): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  if (count > 1 && order.every((value, i) => value === i)) order.push(order.shift() as number);
  return order;
}

/** What the model's vector is made from: a query's instruction is read, not matched (see QUERY_INSTRUCTIONS). */
function meaningOf(model: string, text: string): string {
  const instruction = QUERY_INSTRUCTIONS[model];
  return instruction && text.startsWith(instruction) ? text.slice(instruction.length) : text;
}

export function embeddings({ state, req, body }: RouteContext): Reply {
  if (req.method !== 'POST') return modelError(405);
  const data = parseJson(body);
  if (!isRecord(data)) return modelError(400, 'Bad request: body must be a JSON object');
  const model = data.model;
  if (typeof model !== 'string' || !EMBEDDING_MODELS.includes(model)) return modelError(404, 'No such model');
  const input = data.input;
  if (!Array.isArray(input) || !input.every((text): text is string => typeof text === 'string')) {
    return modelError(422, 'Invalid params: input must be an array of strings');
  }
  const totalChars = input.reduce((sum, text) => sum + characters(text), 0);
  if (input.length > state.options.maxBatch || totalChars > state.options.maxBatchChars) {
    return modelError(413, 'Payload too large');
  }

  const items = shuffledIndexes(input.length, state.random).map((index) => ({
    object: 'embedding',
    index,
    embedding: embed(meaningOf(model, input[index]), EMBEDDING_DIMENSIONS[model]),
    usage: { prompt_tokens: estimateTokens(input[index]) },
  }));
  return json({ object: 'list', model, data: items });
}
