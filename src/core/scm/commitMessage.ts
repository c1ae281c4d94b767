import { applyChunk, type ChatReply } from '../service/chatReply';
import type { ServiceClient } from '../service/client';
import { toServiceConversation } from '../conversation/serviceConversation';
import { FunctionNames } from '../service/functionNames';
import { fitPrompt } from '../prompt/fitPrompt';
import { changeDigest, type ChangeDigest } from './changeDigest';
import { cleanCommitMessage, commitMessagePrompt, commitPromptParts, type CommitRequest } from './commitPrompt';
import { branchTicket, commitStyle, type CommitLanguage } from './commitStyle';
import { sendableChange, type PathJudge } from './sendableChange';
import type { DiffFile } from './unifiedDiff';

/**
 * A commit message from a change, end to end but for the editor: what may be sent of the change,
 * summarised within the budget, in the repository's style, asked of the model through the one
 * conversation pipeline (turns → the service's messages → either contract), its reply cleaned
 * into a message as it streams.
 */

export interface CommitMessageInput {
  scope: CommitRequest['scope'];
  files: readonly DiffFile[];
  /** What may be sent of each path (secrets, ignored files, outside the workspace): the workspace port's judgement. */
  judge: PathJudge;
  /** Recent commit messages, newest first. */
  history: readonly string[];
  branch?: string;
  language: CommitRequest['language'];
  fallbackLanguage: CommitLanguage;
  instructions: string;
  /** The project's rules for the changed files (core/rules, fitted): they take what the change leaves of the budget. */
  rules?: string;
  /** The model's input limit (modelFacts.ts `modelLimits`). */
  maxInputTokens: number;
}

export { MAX_DIGEST_TOKENS } from './commitPrompt';

/** Room kept in the model's input for the reply and the request's wrapping. */
const REPLY_ROOM = 1_500;

/**
 * The request in one budget (the prompt layer): the change summarised in the room the
 * instructions leave (at most MAX_DIGEST_TOKENS), the rules and the example subjects in what it leaves.
 */
export async function commitMessageRequest(input: CommitMessageInput): Promise<{ request: CommitRequest; digest: ChangeDigest }> {
  const files = await sendableChange(input.files, input.judge);
  const budgetTokens = input.maxInputTokens - REPLY_ROOM;
  const request: CommitRequest = {
    digest: '',
    style: commitStyle(input.history),
    language: input.language,
    fallbackLanguage: input.fallbackLanguage,
    ticket: branchTicket(input.branch),
    instructions: input.instructions,
    rules: input.rules,
    scope: input.scope,
    budgetTokens,
  };
  // Written by the change's part, which is required: the layer always asks it for its text.
  let digest!: ChangeDigest;
  const change = (room: number) => {
    digest = changeDigest(files, room);
    return { text: digest.text, leftOut: digest.shortened.length > 0 ? digest.shortened.join('; ') : undefined };
  };
  fitPrompt(commitPromptParts(request, change), budgetTokens);
  return { request: { ...request, digest: digest.text }, digest };
}

/**
 * A reply that is no message to commit, though it has text: the service's content filter answered
 * in the model's place (finish reason `blacklist`, "Не люблю менять тему разговора…"), or the
 * message stopped at the model's token limit (`length`), its end missing.
 */
export class UnfinishedCommitMessage extends Error {
  constructor(readonly reason: 'blacklist' | 'length') {
    super(reason === 'blacklist' ? "The service's content filter answered instead of the model" : "The message stopped at the model's token limit");
  }
}

/**
 * Asks `model` for the message and gives `onMessage` the message as it stands each time more of it
 * arrives (cleaned: commitPrompt.ts `cleanCommitMessage`). Resolves to the whole message; rejects
 * with UnfinishedCommitMessage when the reply, whole, is no message (the caller puts back what
 * the box held).
 */
export async function streamCommitMessage(
  client: Pick<ServiceClient, 'chatStream'>,
  model: string,
  request: CommitRequest,
  signal: AbortSignal,
  onMessage: (message: string) => void,
): Promise<string> {
  const { messages } = toServiceConversation(commitMessagePrompt(request), new FunctionNames());
  let reply: ChatReply = { content: '' };
  let shown = '';
  for await (const chunk of client.chatStream({ model, messages }, { signal })) {
    reply = applyChunk(reply, chunk);
    const message = cleanCommitMessage(reply.content);
    if (message !== shown) onMessage((shown = message));
  }
  if (reply.finishReason === 'blacklist' || reply.finishReason === 'length') throw new UnfinishedCommitMessage(reply.finishReason);
  return cleanCommitMessage(reply.content);
}
