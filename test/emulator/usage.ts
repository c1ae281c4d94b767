// Token accounting. The real tokenizer is not public; about four characters a token is close enough
// for a client that only displays and sums the numbers, and it keeps every count predictable.

/** Characters as the user sees them (code points), so Cyrillic and emoji count once each. */
export function characters(text: string): number {
  return [...text].length;
}

export function estimateTokens(text: string): number {
  return Math.ceil(characters(text) / 4);
}

/** The prompt as one text: what the service tokenizes and what a session can cache. */
export function promptText(messages: { role: string; content: string }[]): string {
  return messages.map((message) => `${message.role}: ${message.content}\n`).join('');
}

/**
 * precached_prompt_tokens: the service caches the prompt of the previous request in the same
 * X-Session-ID, so the prefix shared with it is cheap. Only whole tokens of that prefix count.
 */
export function precachedTokens(sessions: Map<string, string>, sessionId: string | undefined, prompt: string): number {
  if (!sessionId) return 0;
  const previous = sessions.get(sessionId);
  sessions.set(sessionId, prompt);
  if (previous === undefined) return 0;
  let shared = 0;
  const limit = Math.min(previous.length, prompt.length);
  while (shared < limit && previous.charCodeAt(shared) === prompt.charCodeAt(shared)) shared += 1;
  return Math.floor(characters(prompt.slice(0, shared)) / 4);
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  precached_prompt_tokens: number;
}

/** `extraInput`: tokens the model read besides the prompt (the pages a web search found). */
export function usage(prompt: string, completion: string, precached: number, extraInput = 0): Usage {
  const promptTokens = estimateTokens(prompt) + extraInput;
  const completionTokens = Math.max(1, estimateTokens(completion));
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    precached_prompt_tokens: Math.min(precached, promptTokens),
  };
}
