import type { ServiceClient } from '../service/client';
import type { ChatOptions } from '../service/clientOptions';
import { toServiceConversation } from '../conversation/serviceConversation';
import type { ConversationMessage } from '../conversation/turns';
import { FunctionNames } from '../service/functionNames';
import { modelLimits, type ModelLimits } from '../../serviceFacts/modelFacts';
import { FINDINGS_JSON_SCHEMA, readFindings, type ReviewReading } from './reviewFindings';
import { reviewPrompt, type ReviewPrompt } from './reviewPrompt';
import type { ChangedFile } from './sendableChange';

export interface ReviewRequest {
  model: string;
  /** The change as sendableChange.ts judged it. */
  files: readonly ChangedFile[];
  /** The language findings are written in, in English ("Russian"). */
  language: string;
  /** The project's rules for the changed files, fitted to their budget (core/rules). */
  rules?: string;
  /** The user's `modelTokenLimits`, by model id. */
  limits?: Readonly<Record<string, Partial<ModelLimits>>>;
}

/** Tokens kept for the reply: a review of a hundred findings is far less. */
const REPLY_TOKENS = 4_096;

/**
 * Asks the model to review a change, through the conversation pipeline every surface uses (the one
 * turn model, the one converter, the client's contract choice): the findings come as structured
 * output where the contract has it (`response_format`), and as JSON in the text elsewhere, which
 * the same instructions ask for, so one reading serves both. `reading` is undefined when no file's
 * content could be sent, and then nothing was asked.
 */
export async function askForReview(
  client: Pick<ServiceClient, 'chat'>,
  request: ReviewRequest,
  options: ChatOptions = {},
): Promise<{ prompt: ReviewPrompt; reading: ReviewReading | undefined }> {
  const limits = modelLimits(request.model, request.limits);
  const replyTokens = Math.min(REPLY_TOKENS, limits.maxOutputTokens);
  const prompt = reviewPrompt(request.files, {
    budgetTokens: limits.maxInputTokens - replyTokens,
    language: request.language,
    rules: request.rules,
  });
  // Nothing to read (every file withheld, binary or too large): nothing is asked, and nothing paid for.
  if (prompt.shown.size === 0) return { prompt, reading: undefined };
  const conversation: ConversationMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: prompt.user }] }];
  const { messages } = toServiceConversation(conversation, new FunctionNames(), new Map(), prompt.system);
  const completion = await client.chat(
    {
      model: request.model,
      messages,
      max_tokens: replyTokens,
      responseFormat: { type: 'json_schema', schema: FINDINGS_JSON_SCHEMA as unknown as Record<string, unknown>, strict: true },
    },
    options,
  );
  const [choice] = completion.choices;
  return { prompt, reading: readFindings(choice.message.content, choice.finish_reason) };
}
