import * as z from 'zod';
import { FunctionCall, Sources } from '../schemas';

/**
 * The current contract's reply shapes (`v2/chat/completions`), as the service's recorded answers
 * show them. Loose on purpose: the service adds fields, and spells a few two ways.
 */

const FilePart = z.looseObject({ id: z.string(), mime: z.string().optional(), target: z.string().optional() });

const InlineData = z.looseObject({ sources: Sources.optional() });

export const V2Part = z.looseObject({
  text: z.string().optional(),
  files: z.array(FilePart).optional(),
  function_call: FunctionCall.optional(),
  tool_execution: z.looseObject({ name: z.string().optional(), status: z.string().optional() }).optional(),
  inline_data: InlineData.optional(),
});
export type V2Part = z.infer<typeof V2Part>;

/**
 * A message of a reply. The SDK's schema also allows a function call, inline data (a web answer's
 * sources) and the finish reason on the message itself, beside its parts: they are read there too.
 */
export const V2Message = z.looseObject({
  role: z.string().optional(),
  /** A list of parts; the service may also send one part or plain text. */
  content: z.union([z.string(), V2Part, z.array(z.union([z.string(), V2Part]))]).optional(),
  /** Replies spell it `tool_state_id`, requests `tools_state_id`: both are read. */
  tool_state_id: z.string().optional(),
  tools_state_id: z.string().optional(),
  reasoning_content: z.string().optional(),
  function_call: FunctionCall.optional(),
  inline_data: InlineData.optional(),
  finish_reason: z.string().nullish(),
});
export type V2Message = z.infer<typeof V2Message>;

export const V2Usage = z.looseObject({
  input_tokens: z.number().optional(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().optional() }).optional(),
  output_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
});

/** A whole reply, and each streamed event's data (whose fields all may be missing). */
export const V2Reply = z.looseObject({
  model: z.string().optional(),
  created_at: z.union([z.number(), z.string()]).optional(),
  messages: z.array(V2Message).optional(),
  finish_reason: z.string().nullish(),
  usage: V2Usage.optional(),
  tool_state_id: z.string().optional(),
  tools_state_id: z.string().optional(),
});
export type V2Reply = z.infer<typeof V2Reply>;

/** The body of an `error` event in a stream. */
export const V2StreamError = z.looseObject({ status: z.number().optional(), message: z.string().optional() });
