import * as z from 'zod';
import type { FunctionCallMode, ServiceFunction } from './serviceFunctions';

/**
 * Zod schemas for every shape on the wire (see the service contract), and the types inferred
 * from them. Responses are parsed with these on arrival, so a body of the wrong shape becomes a
 * `protocol` error here instead of an `undefined` deep inside the UI. Unknown fields are kept
 * (`looseObject`): the service adds fields over time and callers may want them.
 */

export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  /** Unix time in milliseconds (an old example shows seconds: normalized by the token manager). */
  expires_at: z.number().positive(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** Error bodies: the token host sends `{code, message}`, the model host `{status, message}`. */
export const ErrorBody = z.looseObject({
  code: z.number().optional(),
  status: z.number().optional(),
  message: z.string().optional(),
});

export const Role = z.enum(['system', 'user', 'assistant', 'function']);
export type Role = z.infer<typeof Role>;

/** A model's call of a function: `arguments` is a JSON object on this service (not a string as elsewhere). */
export const FunctionCall = z.looseObject({
  name: z.string(),
  arguments: z.unknown().optional(),
});
export type FunctionCall = z.infer<typeof FunctionCall>;

/** The pages a web answer drew on, by the number its text cites them with (`[sources=[2]]`). */
export const Sources = z.record(z.string(), z.looseObject({ url: z.string(), title: z.string().optional() }));
export type Sources = z.infer<typeof Sources>;

/**
 * A message of the conversation, either way, as the extension speaks it whatever the contract on
 * the wire (the previous contract's shape; `contract/` converts it to and from the current one):
 * an assistant's function call goes back with its `function_call` and `functions_state_id`; a
 * function result has role `function`, the function's `name` and JSON content; a user message
 * may attach uploaded files by id. A reply may carry the model's reasoning apart from its answer,
 * and the sources a web search found.
 */
export const ChatMessage = z.looseObject({
  role: Role,
  content: z.string(),
  functions_state_id: z.string().optional(),
  function_call: FunctionCall.optional(),
  name: z.string().optional(),
  attachments: z.array(z.string()).optional(),
  reasoning_content: z.string().optional(),
  sources: Sources.optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const FinishReason = z.enum(['stop', 'length', 'function_call', 'blacklist', 'error']);
export type FinishReason = z.infer<typeof FinishReason>;

export const Usage = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  precached_prompt_tokens: z.number().optional(),
});
export type Usage = z.infer<typeof Usage>;

/** The service's own tools a request may offer (the current contract; the previous one has pictures only). */
export type BuiltInTool = 'image_generate' | 'web_search' | 'url_content_extraction';

export type ReasoningEffort = 'low' | 'medium' | 'high';

/** Structured output (current contract only): the reply's text is JSON that fits `schema`. */
export interface ResponseFormat {
  type: 'json_schema';
  schema: Record<string, unknown>;
  /** The service keeps to the schema exactly (as the SDK's recorded requests ask). */
  strict: boolean;
}

/**
 * A chat request as the extension writes it: the previous contract's body, plus what only the
 * current one can say (`builtInTools`, `reasoningEffort`). `contract/` turns it into either wire body.
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  repetition_penalty?: number;
  update_interval?: number;
  function_call?: FunctionCallMode;
  functions?: ServiceFunction[];
  builtInTools?: BuiltInTool[];
  /** For a model that reasons before it answers. */
  reasoningEffort?: ReasoningEffort;
  /** Asks for JSON of a schema (`model_options.response_format` on the current contract, `response_format` on the previous one). */
  responseFormat?: ResponseFormat;
  /** Set by `chat` / `chatStream` themselves. */
  stream?: boolean;
}

export const ChatCompletion = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: ChatMessage,
        index: z.number(),
        finish_reason: FinishReason.nullish(),
      }),
    )
    .min(1),
  created: z.number(),
  model: z.string(),
  object: z.string(),
  usage: Usage.optional(),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

export const ChatChunk = z.looseObject({
  choices: z.array(
    z.looseObject({
      delta: z.looseObject({
        role: Role.optional(),
        content: z.string().optional(),
        functions_state_id: z.string().optional(),
        function_call: FunctionCall.optional(),
        reasoning_content: z.string().optional(),
        sources: Sources.optional(),
      }),
      index: z.number(),
      finish_reason: FinishReason.nullish(),
    }),
  ),
  created: z.number().optional(),
  model: z.string().optional(),
  object: z.string().optional(),
  usage: Usage.optional(),
});
export type ChatChunk = z.infer<typeof ChatChunk>;

export const EmbeddingsResponse = z.looseObject({
  object: z.string().optional(),
  model: z.string().optional(),
  data: z.array(
    z.looseObject({
      index: z.number().int().nonnegative(),
      embedding: z.array(z.number()).min(1),
      usage: z.looseObject({ prompt_tokens: z.number() }).optional(),
    }),
  ),
});

export const ModelInfo = z.looseObject({
  id: z.string().min(1),
  object: z.string().optional(),
  owned_by: z.string().optional(),
  /** `chat` or `embedder` (other values may appear later). */
  type: z.string().optional(),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const ModelsResponse = z.looseObject({ data: z.array(ModelInfo) });

export const TokenCount = z.looseObject({ object: z.string().optional(), tokens: z.number(), characters: z.number() });
export type TokenCount = z.infer<typeof TokenCount>;
export const TokenCountResponse = z.array(TokenCount);

/** The answer to `POST /files`: the id to attach to a user message. */
/** The answer to `POST /files/{id}/delete` (the official SDK's `DeletedFile`). */
export const DeletedFile = z.looseObject({ id: z.string(), deleted: z.boolean() });

export const FileInfo = z.looseObject({
  id: z.string().min(1),
  object: z.string().optional(),
  bytes: z.number().int().nonnegative(),
  created_at: z.number(),
  filename: z.string(),
  purpose: z.string(),
});
export type FileInfo = z.infer<typeof FileInfo>;

export const BalanceEntry = z.looseObject({ usage: z.string(), value: z.number() });
export type BalanceEntry = z.infer<typeof BalanceEntry>;
export const BalanceResponse = z.looseObject({ balance: z.array(BalanceEntry) });
