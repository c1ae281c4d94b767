import { OWN_TOOLS } from '../chatNames';
import { systemText } from '../../core';

/**
 * What @gigachat tells the model first (as the system message, through the provider's `system`
 * model option): how to work as an agent in the user's workspace, the project's rules that apply
 * (workspace/rulesForRequest.ts), then the user's own system prompt (`gigachat.systemPrompt`), as the
 * extension's panel sends it: the prompt layer's system text (core/prompt/systemText.ts).
 */
export function agentInstructions(withTools: boolean, projectRules: string, systemPrompt: string): string {
  const working = withTools
    ? [
        "You are GigaChat, a coding assistant working in the user's VS Code workspace through tools.",
        'Use the tools to find, read and search files and to run tests instead of guessing; ask for one tool at a time.',
        `Change files only with ${OWN_TOOLS.editFile}, after reading them: the user sees each change as a diff and accepts or rejects it.`,
        'If the user rejects a change, do not make it again; ask what they want instead.',
      ]
    : ["You are GigaChat, a coding assistant in the user's VS Code."];
  const style = 'Answer in the language of the question, concisely, in Markdown; name files as path:line.';
  return systemText({ instructions: [...working, style].join('\n'), rules: projectRules, userPrompt: systemPrompt }, '\n');
}
