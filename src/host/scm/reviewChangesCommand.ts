import * as path from 'node:path';
import * as vscode from 'vscode';
import { askForReview, placeFindings, reviewedText, sendableChange, ServiceError, type ChangedFile, type DiffFile, type PlacedFinding } from '../../core';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { countMessage } from '../countMessage';
import { Disposable } from '../dispose';
import type { ChangeReviews } from '../edits/changeReviews';
import { showErrorNotification } from '../errors/errorActions';
import type { Log } from '../log';
import { withCancellableProgress } from '../progress';
import { projectRulesFor, rulesFollowed, rulesNote, RULES_BUDGET_TOKENS, type UsedRules } from '../workspace/rulesForRequest';
import { changedUris, changeJudge } from './changeReading';
import { fixFinding } from './findingFixCommand';
import { gitApi, type GitRepository } from './gitApi';
import { showGitUnavailable, showNoRepository, showRestrictedMode } from './gitProblems';
import { chooseRepository } from './repositoryChoice';
import { changeFiles, changeKinds, changeLabel, type ChangeKind } from './reviewedChanges';
import { ReviewFindingsView, type FindingToShow } from './reviewFindingsView';
import { plainLabel } from '../plainLabel';
import { notify } from '../notify';

/**
 * *GigaChat: Review Changes*: asks which change (staged, all uncommitted, or the branch against its
 * upstream; only those there are), sends it to the model (files that look like secrets, ignored
 * files and files outside the workspace named but not their content; a large change summarised
 * within the model's budget, and said so), and shows the findings as comments on their lines and
 * Problems entries, each with Fix (through @gigachat's edit confirmation) and Dismiss.
 */
export class ChangeReview extends Disposable {
  private readonly view = this._register(new ReviewFindingsView());

  constructor(
    private readonly clients: ClientProvider,
    private readonly settings: SettingsReader,
    private readonly reviews: ChangeReviews,
    private readonly log: Log,
  ) {
    super();
    this._register(
      vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, { provideCodeActions: (document, range) => this.quickFixes(document, range) }),
    );
  }

  /** @param target the repository (the Source Control view's title passes its source control), or none to ask */
  async run(target?: unknown): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      return showRestrictedMode(
        vscode.l10n.t(
          "Reviewing changes is off in Restricted Mode: it would send this workspace's changes to the GigaChat service. Trust the workspace to use it.",
        ),
        this.log,
      );
    }
    const git = await gitApi().catch(() => undefined);
    if (!git) return showGitUnavailable();
    const repository = await chooseRepository(git, target, vscode.l10n.t('Which repository should GigaChat review?'));
    if (repository === 'none') return showNoRepository();
    if (!repository) return;
    const kinds = changeKinds(repository);
    if (kinds.length === 0) {
      void notify('info', vscode.l10n.t('{0} has nothing to review: no local changes, and no commits its upstream lacks.', repositoryName(repository)));
      return;
    }
    const kind = kinds.length === 1 ? kinds[0] : await chooseKind(repository, kinds);
    if (!kind) return;
    try {
      await withCancellableProgress(vscode.l10n.t('GigaChat is reviewing the change…'), (signal) => this.review(repository, kind, signal));
    } catch (error) {
      if (error instanceof ServiceError && error.kind === 'cancelled') return;
      void showErrorNotification(error, this.log, () => this.run(repository));
    }
  }

  async fix(target: unknown): Promise<void> {
    const shown = this.view.find(target);
    if (shown && (await fixFinding(shown, this.reviews, this.log))) this.view.remove(shown);
  }

  dismiss(target: unknown): void {
    const shown = this.view.find(target);
    if (shown) this.view.remove(shown);
  }

  private async review(repository: GitRepository, kind: ChangeKind, signal: AbortSignal): Promise<void> {
    const files = await sendableChange(await changeFiles(repository, kind), changeJudge(repository));
    if (files.length === 0) {
      void notify('info', vscode.l10n.t('The change is empty: there is nothing to review.'));
      return;
    }
    // Named to the user: what the rules keep back (lock files and binaries are just not worth reading).
    const withheld = files.filter((file) => file.withheld === 'secret' || file.withheld === 'ignored' || file.withheld === 'outside');
    const client = await this.clients.get();
    const rules = await projectRulesFor(changedUris(repository, files), RULES_BUDGET_TOKENS);
    const { prompt, reading } = await askForReview(
      client,
      {
        model: this.settings.get('model'),
        files,
        language: vscode.env.language.startsWith('ru') ? 'Russian' : 'English',
        limits: this.settings.get('modelTokenLimits'),
        rules: rules.text,
      },
      { signal },
    );
    if (!reading) {
      void notify(
        'info',
        vscode.l10n.t(
          'Nothing of this change can be sent for review: its files look like secrets, are ignored, lie outside the workspace, are binary or too large.',
        ),
      );
      return;
    }
    const deleted = new Set(files.filter((file) => file.status === 'deleted').map((file) => file.path));
    const { placed, dropped } = placeFindings(reading.findings, prompt.shown, deleted);
    if (reading.kind === 'text') placed.push(...generalFinding(reading.text ?? '', prompt.shown, deleted));
    this.log.info(
      `Change review of ${repositoryName(repository)} (${kind}): ${files.length} files, ${withheld.length} withheld, ${prompt.leftOutHunks} hunks left out; ` +
        `the reply read as ${reading.kind}${reading.cut ? ', cut at its token limit' : ''}, ${reading.findings.length} findings ` +
        `(${reading.malformed} malformed, ${dropped} about files the model was not shown)${rulesNote(rules)}.`,
    );
    this.view.replace(placed.map((finding) => toShow(repository, files, finding)));
    void this.tell({ found: placed.length, unreadable: reading.malformed, unplaced: dropped, cut: reading.cut }, withheld, prompt.summarisedFiles, rules);
  }

  private async tell(outcome: ReviewOutcome, withheld: readonly ChangedFile[], summarised: number, rules: UsedRules): Promise<void> {
    const parts = outcomeParts(outcome);
    if (rules.files.length > 0) parts.push(rulesFollowed(rules));
    if (withheld.length > 0)
      parts.push(
        vscode.l10n.t(
          'Not sent, as they look like secrets, are ignored or lie outside the workspace: {0}.',
          withheld.map((file) => path.posix.basename(file.path)).join(', '),
        ),
      );
    if (summarised > 0) parts.push(countMessage('{0|# file was|# files were} too large to send whole: GigaChat reviewed the parts that fit.', summarised));
    const problems = vscode.l10n.t('Show Problems');
    const choice = await notify('info', parts.join(' '), outcome.found > 0 ? [problems] : []);
    if (choice === problems) await vscode.commands.executeCommand('workbench.actions.view.problems');
  }

  private quickFixes(document: vscode.TextDocument, range: vscode.Range): vscode.CodeAction[] {
    return this.view.at(document.uri, range).flatMap((shown) => {
      const actions: vscode.CodeAction[] = [];
      if (shown.finding.suggestion !== undefined) {
        const fix = new vscode.CodeAction(vscode.l10n.t('Fix with GigaChat’s suggestion: {0}', shown.finding.title), vscode.CodeActionKind.QuickFix);
        fix.command = { command: 'gigachat.fixReviewFinding', title: fix.title, arguments: [shown.id] };
        fix.diagnostics = [shown.diagnostic];
        actions.push(fix);
      }
      const dismiss = new vscode.CodeAction(vscode.l10n.t('Dismiss GigaChat’s finding: {0}', shown.finding.title), vscode.CodeActionKind.QuickFix);
      dismiss.command = { command: 'gigachat.dismissReviewFinding', title: dismiss.title, arguments: [shown.id] };
      dismiss.diagnostics = [shown.diagnostic];
      return [...actions, dismiss];
    });
  }
}

interface ReviewOutcome {
  /** Findings shown. */
  found: number;
  /** Findings the reply gave that could not be read. */
  unreadable: number;
  /** Findings about files the model was not shown. */
  unplaced: number;
  /** The reply stopped at its token limit. */
  cut: boolean;
}

/** What the review found, said whole: "no problems" only when nothing was lost on the way. */
function outcomeParts({ found, unreadable, unplaced, cut }: ReviewOutcome): string[] {
  const parts: string[] = [];
  if (found > 0) parts.push(countMessage('GigaChat found {0|# problem|# problems} in the change.', found));
  else if (unreadable === 0 && unplaced === 0 && !cut) parts.push(vscode.l10n.t('GigaChat found no problems in the change.'));
  else parts.push(vscode.l10n.t('GigaChat’s review has no finding that can be shown.'));
  if (unreadable > 0) parts.push(countMessage('{0|# more finding|# more findings} could not be read, so {0|it is|they are} not shown.', unreadable));
  if (unplaced > 0)
    parts.push(countMessage('{0|# more finding is|# more findings are} about files GigaChat was not sent, so {0|it is|they are} not shown.', unplaced));
  if (cut)
    parts.push(vscode.l10n.t('The review was cut at the reply’s length limit, so its last findings are missing: review a smaller change to see them all.'));
  return parts;
}

async function chooseKind(repository: GitRepository, kinds: readonly ChangeKind[]): Promise<ChangeKind | undefined> {
  const picked = await vscode.window.showQuickPick(
    kinds.map((kind) => ({ ...changeLabel(kind, repository), change: kind })),
    { title: vscode.l10n.t('Review Changes in {0}', repositoryName(repository)), placeHolder: vscode.l10n.t('Which change should GigaChat review?') },
  );
  return picked?.change;
}

function repositoryName(repository: GitRepository): string {
  return plainLabel(path.basename(repository.rootUri.fsPath));
}

/** A reply that could not be read as findings, kept whole at the top of the first file the model was shown. */
function generalFinding(text: string, shown: ReadonlyMap<string, unknown>, deleted: ReadonlySet<string>): PlacedFinding[] {
  const file = [...shown.keys()].find((each) => !deleted.has(each));
  if (!file || text === '') return [];
  return [{ path: file, line: 1, first: 1, last: 1, severity: 'info', title: vscode.l10n.t('GigaChat’s review'), reasoning: text }];
}

function toShow(repository: GitRepository, files: readonly DiffFile[], finding: PlacedFinding): FindingToShow {
  const file = files.find((each) => each.path === finding.path);
  const original = (file && reviewedText(file, finding.first, finding.last)) ?? '';
  return { uri: vscode.Uri.joinPath(repository.rootUri, finding.path), finding, original };
}
