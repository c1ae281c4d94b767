import { applyChunk, type ChatReply } from '../service/chatReply';
import type { ServiceClient } from '../service/client';
import { toServiceConversation } from '../conversation/serviceConversation';
import { FunctionNames } from '../service/functionNames';
import { estimateTokens } from '../service/tokenCounter';
import { changeDigest, type ChangeDigest } from './changeDigest';
import { cleanCommitMessage, commitMessagePrompt, type CommitRequest } from './commitPrompt';
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
  /** The project's rules for the changed files, fitted to their budget (core/rules); they take their room from the change's. */
  rules?: string;
  /** The model's input limit (modelFacts.ts `modelLimits`). */
  maxInputTokens: number;
}

/** The most a change takes of a commit message's request: a day's work fits whole, and a message never costs a long chat's worth of tokens. */
export const MAX_DIGEST_TOKENS = 12_000;

/** Room left in the model's input for the instructions and the recent subjects. */
const PROMPT_ROOM = 2_000;

export async function commitMessageRequest(input: CommitMessageInput): Promise<{ request: CommitRequest; digest: ChangeDigest }> {
  const files = await sendableChange(input.files, input.judge);
  const rulesTokens = estimateTokens(input.rules ?? '');
  const digest = changeDigest(files, Math.max(PROMPT_ROOM, Math.min(MAX_DIGEST_TOKENS, input.maxInputTokens - PROMPT_ROOM - rulesTokens)));
  const request: CommitRequest = {
    digest: digest.text,
    style: commitStyle(input.history),
    language: input.language,
    fallbackLanguage: input.fallbackLanguage,
    ticket: branchTicket(input.branch),
    instructions: input.instructions,
    rules: input.rules,
    scope: input.scope,
  };
  return { request, digest };
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
