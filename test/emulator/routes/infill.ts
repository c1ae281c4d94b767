// A self-hosted fill-in-the-middle server, as the extension may be pointed at instead of the
// service for completions: Ollama's /api/generate (`prompt` + `suffix`), llama.cpp's /infill
// (`input_prefix` + `input_suffix`), and an OpenAI-compatible /v1/completions (`suffix`, or the
// model's FIM tokens in `prompt` as vLLM takes them). The model answers as a FIM model does: only
// the middle, which runs on into the code after the hole (its next line) unless a stop ends it.
// With the emulator's `infillApiKey` set, a request without that bearer token gets 401.
import { header, isRecord, json, parseJson, type Reply } from '../http';
import type { RouteContext } from '../state';
import { infillMiddle } from '../completion-answers';

export const INFILL_PATHS = ['/api/generate', '/infill', '/v1/completions'] as const;

/** The FIM tokens the emulated model reads in a prompt (Qwen's): a prompt without them is all prefix. */
const FIM = { prefix: '<|fim_prefix|>', suffix: '<|fim_suffix|>', middle: '<|fim_middle|>' };

export function infill(context: RouteContext, path: string): Reply {
  const key = context.state.options.infillApiKey;
  if (key && (header(context.req, 'authorization') ?? '') !== `Bearer ${key}`) return json({ error: 'unauthorized' }, 401);
  const body = parseJson(context.body);
  if (!isRecord(body)) return json({ error: 'invalid JSON' }, 400);
  const hole = holeOf(path, body);
  if (!hole) return json({ error: `${path} needs the text before and after the hole` }, 400);
  const middle = stopAt(infillMiddle(hole.prefix, hole.suffix), stopsOf(body));
  if (path === '/api/generate') return json({ model: body.model, response: middle, done: true });
  if (path === '/infill') return json({ content: middle, stop: true });
  return json({
    object: 'text_completion',
    model: body.model,
    choices: [{ index: 0, text: middle, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1 },
  });
}

function holeOf(path: string, body: Record<string, unknown>): { prefix: string; suffix: string } | undefined {
  if (path === '/infill')
    return typeof body.input_prefix === 'string' && typeof body.input_suffix === 'string'
      ? { prefix: body.input_prefix, suffix: body.input_suffix }
      : undefined;
  if (typeof body.prompt !== 'string') return undefined;
  if (typeof body.suffix === 'string') return { prefix: body.prompt, suffix: body.suffix };
  // No `suffix`: the hole is marked with the model's tokens (vLLM), or there is none (plain completion).
  const match = new RegExp(`^${escape(FIM.prefix)}([\\s\\S]*)${escape(FIM.suffix)}([\\s\\S]*)${escape(FIM.middle)}$`).exec(body.prompt);
  return match ? { prefix: match[1], suffix: match[2] } : path === '/api/generate' ? undefined : { prefix: body.prompt, suffix: '' };
}

function stopsOf(body: Record<string, unknown>): string[] {
  const stop = isRecord(body.options) ? body.options.stop : body.stop;
  return Array.isArray(stop) ? stop.filter((item): item is string => typeof item === 'string' && item !== '') : [];
}

/** The text up to the first stop sequence, as a server cuts it (the stop itself not included). */
function stopAt(text: string, stops: string[]): string {
  const at = Math.min(...stops.map((stop) => text.indexOf(stop)).filter((index) => index !== -1), text.length);
  return text.slice(0, at);
}

function escape(text: string): string {
  return text.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');
}
