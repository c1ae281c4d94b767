import * as vscode from 'vscode';
import { MODEL_VENDOR } from '../chatNames';
import type { Log } from '../log';
import { notify } from '../notify';

/**
 * VS Code's utility models: the models its Chat uses for small jobs beside the answer (chat
 * titles, intent detection, commit messages, rename suggestions, summaries). With a model of an
 * extension as the main model, VS Code (1.128+) takes them from these settings, whose value is
 * `vendor/id` (`gigachat/GigaChat-2`), or from `chat.byokUtilityModelDefault` ("mainAgent": the
 * chat's own model). With neither, and no GitHub sign-in, those jobs fail, and the first question
 * with them ("Please try again", "Set BYOK utility models").
 */
const SMALL = 'utilitySmallModel';
const LARGE = 'utilityModel';
const FALLBACK = 'byokUtilityModelDefault';

/** Remembered once the offer was made, whatever the answer: it is made once. */
const OFFERED_KEY = 'gigachat.utilityModelsOffered';
/** The values this extension wrote, so that undoing removes only what is still its own. */
const WRITTEN_KEY = 'gigachat.utilityModelsWritten';

/** The small, cheap model for the small jobs, and the ones preferred for the rest, best first. */
const SMALL_MODELS = ['GigaChat-2', 'GigaChat'];
const LARGE_MODELS = ['GigaChat-2-Pro', 'GigaChat-2-Max', 'GigaChat-2'];

export interface UtilityChoice {
  small: string;
  large: string;
}

/** Which GigaChat models to use: a small one from the account's list, and the chat's model (or a Pro one) for the rest. */
export function chooseUtilityModels(available: readonly string[], chatModel: string | undefined): UtilityChoice {
  const first = (preferred: readonly string[]) => preferred.find((id) => available.includes(id));
  const small = first(SMALL_MODELS) ?? chatModel ?? available[0] ?? 'GigaChat-2';
  const large = chatModel ?? first(LARGE_MODELS) ?? small;
  return { small, large };
}

/** Whether VS Code has a utility model to use with an extension's model: one of the settings, or the main model as the fallback. */
export function utilityModelsConfigured(): boolean {
  // eslint-disable-next-line no-restricted-syntax -- VS Code's Chat settings, which this feature writes with the user's yes
  const chat = vscode.workspace.getConfiguration('chat');
  return Boolean(chat.get<string>(SMALL)) || Boolean(chat.get<string>(LARGE)) || chat.get<string>(FALLBACK) === 'mainAgent';
}

export interface UtilityModelsDependencies {
  state: vscode.Memento;
  log: Log;
  /** The account's chat models (the configured one at least). */
  models(): Promise<string[]>;
}

export class UtilityModels {
  constructor(private readonly deps: UtilityModelsDependencies) {}

  /**
   * When VS Code's Chat answers with a GigaChat model and no utility model is set: asks once
   * whether to use GigaChat for them, and sets them only after a yes.
   */
  async offer(chatModel: string): Promise<void> {
    const { state } = this.deps;
    if (state.get<boolean>(OFFERED_KEY) || utilityModelsConfigured()) return;
    await state.update(OFFERED_KEY, true);
    const choice = chooseUtilityModels(await this.deps.models(), chatModel);
    const use = vscode.l10n.t('Use GigaChat');
    const answer = await notify(
      'info',
      vscode.l10n.t(
        "VS Code's Chat answers with GigaChat. Its chat titles, commit messages, rename suggestions and other small jobs need utility models, or they fail. Use {0} for the small jobs and {1} for the others? (GigaChat: Stop Using GigaChat for VS Code's Utility Models undoes it.)",
        choice.small,
        choice.large,
      ),
      [use, vscode.l10n.t('Not Now')],
    );
    if (answer === use) await this.apply(choice);
  }

  /** The command: says which settings it will set to which models, and sets them after a yes. */
  async useGigaChat(): Promise<void> {
    const choice = chooseUtilityModels(await this.deps.models(), undefined);
    const use = vscode.l10n.t('Use GigaChat');
    const answer = await notify('info', vscode.l10n.t("Use GigaChat for VS Code's utility models?"), [use], {
      modal: true,
      detail: vscode.l10n.t(
        "VS Code's Chat uses them for chat titles, commit messages, rename suggestions and other small jobs when its model is GigaChat. Your user settings get chat.utilitySmallModel = {0} and chat.utilityModel = {1}.",
        `${MODEL_VENDOR}/${choice.small}`,
        `${MODEL_VENDOR}/${choice.large}`,
      ),
    });
    if (answer === use) await this.apply(choice);
  }

  /** The command that undoes it: removes the two settings where they still hold what this extension wrote. */
  async stopUsingGigaChat(): Promise<void> {
    // eslint-disable-next-line no-restricted-syntax -- VS Code's Chat settings, which this feature writes with the user's yes
    const chat = vscode.workspace.getConfiguration('chat');
    const written = this.deps.state.get<Record<string, string>>(WRITTEN_KEY) ?? {};
    let removed = 0;
    for (const key of [SMALL, LARGE]) {
      const value = chat.inspect<string>(key)?.globalValue;
      if (value && (value === written[key] || value.startsWith(`${MODEL_VENDOR}/`))) {
        await chat.update(key, undefined, vscode.ConfigurationTarget.Global);
        removed++;
      }
    }
    await this.deps.state.update(WRITTEN_KEY, undefined);
    void notify(
      'info',
      removed > 0
        ? vscode.l10n.t("VS Code's utility models no longer use GigaChat.")
        : vscode.l10n.t("VS Code's utility models were not set to GigaChat models: nothing was changed."),
    );
  }

  private async apply(choice: UtilityChoice): Promise<void> {
    // eslint-disable-next-line no-restricted-syntax -- VS Code's Chat settings, which this feature writes with the user's yes
    const chat = vscode.workspace.getConfiguration('chat');
    const values = { [SMALL]: `${MODEL_VENDOR}/${choice.small}`, [LARGE]: `${MODEL_VENDOR}/${choice.large}` };
    for (const [key, value] of Object.entries(values)) await chat.update(key, value, vscode.ConfigurationTarget.Global);
    await this.deps.state.update(WRITTEN_KEY, values);
    this.deps.log.info(`VS Code's utility models set to ${values[SMALL]} (small jobs) and ${values[LARGE]} (the others).`);
  }
}
