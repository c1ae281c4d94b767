import { z } from 'zod';

/**
 * What a self-hosted fill-in-the-middle server is sent and answers, per kind of server
 * (../shared/docs/completions.md, "Self-hosted fill-in-the-middle servers"):
 *   - `ollama`: `/api/generate` with `suffix` (Ollama applies the model's own FIM template);
 *   - `llama.cpp`: its server's `/infill` with `input_prefix`, `input_suffix` and the files open
 *     beside as `input_extra` (its `/v1/completions` refuses `suffix`);
 *   - `openai`: an OpenAI-compatible `/v1/completions`: with `suffix` when no template is given
 *     (Ollama's), or with the model's own FIM tokens in `prompt` (vLLM, which has no `suffix`).
 */
export type InfillServerKind = 'ollama' | 'llama.cpp' | 'openai';

export const INFILL_SERVER_KINDS: readonly InfillServerKind[] = ['ollama', 'llama.cpp', 'openai'];

/** The text around the cursor and what the answer may be. */
export interface InfillRequest {
  model: string;
  prefix: string;
  suffix: string;
  neighbours: readonly { path: string; text: string }[];
  maxTokens: number;
  multiline: boolean;
  /** The model's FIM prompt with `{prefix}` and `{suffix}`, or the name of a known one; for `openai` only. */
  template?: string;
}

/**
 * The FIM tokens of common open code models, by the name the setting takes. A model's card names
 * its own; any other is given as a template with `{prefix}` and `{suffix}`.
 */
export const FIM_TEMPLATES: Readonly<Record<string, string>> = {
  qwen: '<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>',
  starcoder: '<fim_prefix>{prefix}<fim_suffix>{suffix}<fim_middle>',
  codellama: '<PRE> {prefix} <SUF>{suffix} <MID>',
  deepseek: '<｜fim▁begin｜>{prefix}<｜fim▁hole｜>{suffix}<｜fim▁end｜>',
  codestral: '[SUFFIX]{suffix}[PREFIX]{prefix}',
};

/** Whether `template` is usable: a known name, or text with both placeholders. */
export function isInfillTemplate(template: string): boolean {
  return template in FIM_TEMPLATES || (template.includes('{prefix}') && template.includes('{suffix}'));
}

/** The path and JSON body of the request for `kind`. */
export function infillRequest(kind: InfillServerKind, request: InfillRequest): { path: string; body: Record<string, unknown> } {
  // The server stops where the cleaning would cut (a blank line ends a block; a line, a line's
  // rest), rather than writing on for nothing.
  const stop = request.multiline ? ['\n\n'] : ['\n'];
  switch (kind) {
    case 'ollama':
      return {
        path: '/api/generate',
        body: {
          model: request.model,
          prompt: request.prefix,
          suffix: request.suffix,
          stream: false,
          options: { num_predict: request.maxTokens, temperature: 0.1, stop },
        },
      };
    case 'llama.cpp':
      return {
        path: '/infill',
        body: {
          input_prefix: request.prefix,
          input_suffix: request.suffix,
          input_extra: request.neighbours.map((file) => ({ filename: file.path, text: file.text })),
          n_predict: request.maxTokens,
          temperature: 0.1,
          stop,
          stream: false,
          // The server keeps the prompt it evaluated: the next request shares its prefix.
          cache_prompt: true,
        },
      };
    case 'openai': {
      const template = request.template ? (FIM_TEMPLATES[request.template] ?? request.template) : undefined;
      const prompt = template
        ? // A function, so a `$` in the code is not read as a replacement pattern.
          template.replace('{prefix}', () => request.prefix).replace('{suffix}', () => request.suffix)
        : request.prefix;
      return {
        path: '/v1/completions',
        body: {
          model: request.model,
          prompt,
          ...(template ? {} : { suffix: request.suffix }),
          max_tokens: request.maxTokens,
          temperature: 0.1,
          stop: template ? [...stop, ...templateMarkers(template)] : stop,
          stream: false,
        },
      };
    }
  }
}

/** The template's own tokens: a model that writes one has gone past the middle. */
function templateMarkers(template: string): string[] {
  return template
    .split(/\{prefix\}|\{suffix\}/)
    .map((marker) => marker.trim())
    .filter((marker) => marker !== '')
    .slice(0, 2);
}

const OllamaReply = z.object({ response: z.string() });
const LlamaCppReply = z.object({ content: z.string() });
const OpenAiReply = z.object({
  choices: z.array(z.object({ text: z.string() })).min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number().optional() }).optional(),
});

/** The schema of the answer for `kind`, and where its text is. */
export function infillReply(kind: InfillServerKind): z.ZodType<{ text: string }> {
  switch (kind) {
    case 'ollama':
      return OllamaReply.transform((reply) => ({ text: reply.response }));
    case 'llama.cpp':
      return LlamaCppReply.transform((reply) => ({ text: reply.content }));
    case 'openai':
      return OpenAiReply.transform((reply) => ({ text: reply.choices[0].text }));
  }
}
