import { fitPrompt, promptMessages } from './fitPrompt';
import { trimAtLineEnds } from './shrinking';

/**
 * The system text of a conversation (the panel's chat, @gigachat) from the prompt layer: the
 * extension's own instructions (none for the panel), the project's rules that apply, then the
 * user's own system prompt, which has the last word. The instructions and the user's prompt always
 * go; the rules take at most RULES_BUDGET_TOKENS, cut at a line's end beyond it (the host reads
 * them already fitted to it, naming the files it kept). The conversation after it is fitted by the
 * service: a request too large for the model is asked again without its older half
 * (service/contextFit.ts), which the chat tells the user.
 */

/** What the rules may take of a request that has no budget of its own to share them with (the panel, @gigachat). */
export const RULES_BUDGET_TOKENS = 2_000;

/** What ends the rules when their room cuts them. */
const RULES_CUT = "[…the rest of the project's rules is left out for lack of room]";

export interface SystemTextParts {
  instructions?: string;
  rules?: string;
  userPrompt?: string;
}

/** The system text, its parts joined by `separator` (a line break or a blank line, as the surface had it). */
export function systemText(parts: SystemTextParts, separator: '\n' | '\n\n'): string {
  const fitted = fitPrompt(
    [
      { key: 'instructions', role: 'system', required: true, text: parts.instructions?.trim() ?? '' },
      { key: 'rules', role: 'system', text: parts.rules?.trim() ?? '', shrink: trimAtLineEnds(RULES_CUT), maxTokens: RULES_BUDGET_TOKENS },
      { key: 'userPrompt', role: 'system', required: true, text: parts.userPrompt?.trim() ?? '' },
    ],
    Infinity,
  );
  return promptMessages(fitted, separator)[0]?.text ?? '';
}
