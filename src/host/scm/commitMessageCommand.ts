import * as path from 'node:path';
import * as vscode from 'vscode';
import { commitMessageRequest, modelLimits, streamCommitMessage, UnfinishedCommitMessage, type ServiceClient } from '../../core';
import { abortSignalOf } from '../cancellation';
import type { SettingsReader } from '../settings/settingsReader';
import { offerErrorActions, showErrorNotification } from '../errors/errorActions';
import type { Log } from '../log';
import { withCancellableProgress } from '../progress';
import { plainLabel } from '../plainLabel';
import { projectRulesFor, rulesFollowed, rulesNote, RULES_BUDGET_TOKENS } from '../workspace/rulesForRequest';
import { changeJudge, changedUris, readPendingChange } from './changeReading';
import { gitApi, type GitRepository } from './gitApi';
import { showGitUnavailable, showNoRepository, showRestrictedMode } from './gitProblems';
import { chooseRepository } from './repositoryChoice';
import { notify } from '../notify';

/** How many recent commits show the repository's style. */
const HISTORY_COMMITS = 20;

export interface CommitMessageServices {
  clients: { get(): Promise<Pick<ServiceClient, 'chatStream'>> };
  settings: Pick<SettingsReader, 'get'>;
  log: Log;
}

/**
 * GigaChat: Write Commit Message. Reads the change the next commit would record and streams
 * GigaChat's message for it into that repository's Source Control input box, with the chat's
 * model. The user's own text there comes back if the message fails or is cancelled, and typing
 * into the box while the message arrives stops it (the typing wins).
 */
export class CommitMessages {
  constructor(private readonly services: CommitMessageServices) {}

  /**
   * @param target what a Source Control menu passes: the SourceControl, which has its root (`scm/title`,
   *   the view's title and each repository's row), or the root's Uri (`scm/inputBox`)
   * @param token the `scm/inputBox` menu's cancellation (its stop button). That menu is a proposed
   *   API, refused to an extension without the proposal, so the button is in `scm/title` for now.
   */
  async write(target?: unknown, token?: unknown): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      return showRestrictedMode(
        vscode.l10n.t(
          "Writing the commit message is off in Restricted Mode: it would send this workspace's changes to the GigaChat service. Trust the workspace to use it.",
        ),
        this.services.log,
      );
    }
    const api = await gitApi().catch(() => undefined);
    if (!api) return showGitUnavailable();
    const repository = await chooseRepository(api, target, vscode.l10n.t('Choose the repository to write the commit message for'));
    if (repository === 'none') return showNoRepository();
    if (repository) await this.writeInto(repository, isToken(token) ? token : undefined);
  }

  private async writeInto(repository: GitRepository, token: vscode.CancellationToken | undefined): Promise<void> {
    const { log } = this.services;
    const title = vscode.l10n.t('GigaChat is writing the commit message…');
    const task = (signal: AbortSignal, report: (message: string) => void) => this.stream(repository, signal, report);
    try {
      // The SCM view shows it is busy where the message will appear; the notification has the Cancel button.
      await vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl }, () =>
        withCancellableProgress(title, async (signal, report) => {
          const menu = token && abortSignalOf(token);
          try {
            return await task(menu ? AbortSignal.any([signal, menu.signal]) : signal, report);
          } finally {
            menu?.dispose();
          }
        }),
      );
    } catch (error) {
      if (error instanceof NothingToCommit) return showNothingToCommit(repository);
      if (error instanceof UnfinishedCommitMessage) return showUnfinished(error, log, () => this.writeInto(repository, undefined));
      await showErrorNotification(error, log, () => this.writeInto(repository, undefined));
    }
  }

  /** `report` says in the progress notification which of the project's rules the message follows. */
  private async stream(repository: GitRepository, signal: AbortSignal, report: (message: string) => void): Promise<void> {
    const { clients, settings, log } = this.services;
    const root = repository.rootUri.fsPath;
    // Independent, so read at once: the message's first character comes sooner.
    const [client, change, commits] = await Promise.all([
      clients.get(),
      readPendingChange(repository),
      // A repository without commits yet has no log: no style to follow.
      repository.log({ maxEntries: HISTORY_COMMITS }).catch(() => []),
    ]);
    if (change.files.length === 0) throw new NothingToCommit();
    const model = settings.get('model');
    const rules = await projectRulesFor(changedUris(repository, change.files), RULES_BUDGET_TOKENS);
    if (rules.files.length > 0) report(plainLabel(rulesFollowed(rules)));
    const { request, digest } = await commitMessageRequest({
      ...change,
      judge: changeJudge(repository),
      history: commits.map((commit) => commit.message),
      branch: repository.state.HEAD?.name,
      language: settings.get('commitMessageLanguage'),
      fallbackLanguage: vscode.env.language.startsWith('ru') ? 'ru' : 'en',
      instructions: settings.get('commitMessageInstructions'),
      rules: rules.text,
      maxInputTokens: modelLimits(model, settings.get('modelTokenLimits')).maxInputTokens,
    });
    log.info(
      `Commit message for ${root}: ${change.scope} change, ${change.files.length} files, ${digest.hunksShown} of ${digest.hunksTotal} hunks sent (about ${digest.tokens} tokens)` +
        (digest.shortened.length > 0 ? `; shortened: ${digest.shortened.join('; ')}` : '') +
        rulesNote(rules),
    );
    await writeStreaming(repository, (onMessage, stop) => streamCommitMessage(client, model, request, AbortSignal.any([signal, stop]), onMessage));
  }
}

/**
 * Streams into the input box; on failure or cancel the box gets back what it held, unless the user
 * has typed since. The box's value read back can lag behind what was written (VS Code echoes each
 * value set back to the extension host, a moment later), so the user's typing is told from the
 * echoes as a value this never wrote.
 */
async function writeStreaming(repository: GitRepository, run: (onMessage: (message: string) => void, stop: AbortSignal) => Promise<string>): Promise<void> {
  const box = repository.inputBox;
  const before = box.value;
  const ours = new Set([before]);
  const typing = new AbortController();
  try {
    await run((message) => {
      if (!ours.has(box.value)) return typing.abort();
      ours.add(message);
      box.value = message;
    }, typing.signal);
  } catch (error) {
    if (typing.signal.aborted) return;
    if (ours.has(box.value)) box.value = before;
    throw error;
  }
}

class NothingToCommit extends Error {}

function isToken(value: unknown): value is vscode.CancellationToken {
  return typeof (value as vscode.CancellationToken | undefined)?.onCancellationRequested === 'function';
}

/** Why the box got its text back rather than the reply, and the way on: another model for a refusal, another try for a cut message. */
async function showUnfinished(error: UnfinishedCommitMessage, log: Log, retry: () => Promise<void>): Promise<void> {
  log.warn(`Commit message not written: ${error.message} (finish reason ${error.reason}).`);
  const action = error.reason === 'blacklist' ? 'modelSettings' : 'retry';
  const message =
    error.reason === 'blacklist'
      ? vscode.l10n.t(
          'The service’s content filter refused to write a message for this change, so the box keeps what it held. Write the message yourself, or try another model.',
        )
      : vscode.l10n.t(
          'The commit message was cut off at the model’s reply limit, so the box keeps what it held. Try again, or stage a smaller part of the change.',
        );
  await offerErrorActions('warning', message, [action], log, retry);
}

async function showNothingToCommit(repository: GitRepository): Promise<void> {
  const open = vscode.l10n.t('Open Source Control');
  const answer = await notify(
    'info',
    vscode.l10n.t('Nothing to commit in {0}: no file has changed since the last commit.', path.basename(repository.rootUri.fsPath)),
    [open],
  );
  if (answer === open) await vscode.commands.executeCommand('workbench.view.scm');
}
