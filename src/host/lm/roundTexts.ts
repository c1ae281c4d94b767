import * as vscode from 'vscode';
import { modelReasons, type ModelRound, type ReasoningEffort, type RoundTexts } from '../../core';
import type { Log } from '../log';

/**
 * What the core's rounds of the model (core/chat/modelRound.ts) take from VS Code's side and tell
 * it, the same for the language model provider and `@gigachat`: the texts a round writes, the
 * settings' reasoning effort, and what the log keeps of each round.
 */

/** In place of a picture the model drew (VS Code's Chat cannot show pictures), a web answer's sources, a call that was not passed on. */
export function roundTexts(): RoundTexts {
  return {
    picture: `_${vscode.l10n.t("GigaChat drew a picture here; VS Code's Chat cannot show it. Ask in the GigaChat panel to see pictures.")}_`,
    sources: vscode.l10n.t('Sources'),
    notOffered: (name) => vscode.l10n.t('GigaChat asked for a tool it was not offered ({0}); nothing was run.', name),
  };
}

/** The effort the settings ask (`effort`) of a model that reasons before answering. */
export function reasoningOption(model: string, effort: ReasoningEffort | undefined): { reasoningEffort?: ReasoningEffort } {
  return effort && modelReasons(model) ? { reasoningEffort: effort } : {};
}

/** A round's cost, the calls it did not pass on, and the messages it left out, in the log (`who`: which surface asked). */
export function logRound(log: Log, who: string, model: string, round: ModelRound): void {
  if (round.usage) {
    const { prompt_tokens, completion_tokens, total_tokens, precached_prompt_tokens = 0 } = round.usage;
    log.info(`${who}, ${model}: ${total_tokens} tokens (${prompt_tokens} in, ${precached_prompt_tokens} of them cached; ${completion_tokens} out).`);
  }
  for (const name of round.dropped) log.warn(`GigaChat called "${name}", a function the request did not offer: the call was not passed on.`);
  if (round.shortened > 0) log.info(`${who}, ${model}: the ${round.shortened} oldest messages were left out to fit the model's context.`);
}
