// The small read-only endpoints: GET /models, POST /tokens/count, GET /balance. Shapes as in the
// contract, nothing more, so the client's parsers are tested against exactly what it will meet.
import { CHAT_MODELS, CURRENT_CONTRACT_MODELS, EMBEDDING_MODELS, POSTPAID_SCOPE } from '../constants';
import { isRecord, json, modelError, parseJson, type Reply } from '../http';
import type { RouteContext } from '../state';
import { characters, estimateTokens } from '../usage';

export function models({ req }: RouteContext): Reply {
  if (req.method !== 'GET') return modelError(405);
  const entry = (id: string, type: string) => ({ id, object: 'model', owned_by: 'salutedevices', type });
  return json({
    object: 'list',
    data: [...CHAT_MODELS, ...CURRENT_CONTRACT_MODELS].map((id) => entry(id, 'chat')).concat(EMBEDDING_MODELS.map((id) => entry(id, 'embedder'))),
  });
}

export function tokensCount({ req, body }: RouteContext): Reply {
  if (req.method !== 'POST') return modelError(405);
  const data = parseJson(body);
  if (!isRecord(data)) return modelError(400, 'Bad request: body must be a JSON object');
  if (typeof data.model !== 'string' || ![...CHAT_MODELS, ...CURRENT_CONTRACT_MODELS, ...EMBEDDING_MODELS].includes(data.model)) {
    return modelError(404, 'No such model');
  }
  const input = data.input;
  if (!Array.isArray(input) || !input.every((text): text is string => typeof text === 'string')) {
    return modelError(422, 'Invalid params: input must be an array of strings');
  }
  return json(input.map((text) => ({ object: 'tokens', tokens: estimateTokens(text), characters: characters(text) })));
}

/** Postpaid (CORP) accounts have no prepaid balance: the service answers 403 for them. */
export function balance({ req, scope }: RouteContext): Reply {
  if (req.method !== 'GET') return modelError(405);
  if (scope === POSTPAID_SCOPE) return modelError(403, 'Permission denied');
  return json({
    balance: [
      { usage: 'GigaChat', value: 991490 },
      { usage: 'GigaChat-Pro', value: 498800 },
      { usage: 'GigaChat-Max', value: 250000 },
      { usage: 'embeddings', value: 4995000 },
    ],
  });
}
