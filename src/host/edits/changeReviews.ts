import * as vscode from 'vscode';
import { Disposable } from '../dispose';
import { plainLabel } from '../plainLabel';
import { PROPOSAL_SCHEME, ProposedTexts } from './proposedTexts';
import { notify } from '../notify';

/** A change to show the user before anything is written. */
export interface ProposedChange {
  /** The file as it is now (for a new file: where it would be). */
  file: vscode.Uri;
  /** How the user and the model name it. */
  label: string;
  /** The file's text now ('' for a new file) and after the change. */
  before: string;
  after: string;
  /** Sentences for the question, besides what changes: the file can run code, long lines, a new file. */
  notes: string[];
  /** The question stands out as a warning (a file that can run code). */
  warn: boolean;
}

/** A change waiting for its answer: `proposal` names it to the Apply and Discard commands. */
export interface ChangeQuestion {
  proposal: vscode.Uri;
  label: string;
}

/** The user's answer; `dismissed` when the question was closed (or the chat stopped) without one. */
export type ReviewAnswer = 'apply' | 'discard' | 'dismissed';

/** Context key set while a change waits for its answer: the Apply and Discard commands show then. */
const REVIEWING = 'gigachat.reviewingChange';

interface Pending {
  proposal: vscode.Uri;
  answer(choice: ReviewAnswer): void;
}

/**
 * Asks the user about each change an agent wants to make, every time (no "allow for the session"):
 * the change opens in VS Code's diff editor (the file as it is on the left, the proposal on the
 * right, read-only), and a notification asks Apply or Discard, as do the diff editor's title
 * buttons and the commands. Closing the diff editor, or stopping the chat, discards the change.
 */
export class ChangeReviews extends Disposable {
  private readonly texts = new ProposedTexts();
  private readonly pending: Pending[] = [];
  private readonly asking = this._register(new vscode.EventEmitter<ChangeQuestion>());
  /** A change is shown and waits for its answer: where else to offer Apply and Discard (@gigachat's answer). */
  readonly onDidAsk = this.asking.event;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this.texts));
    this._register(
      vscode.window.tabGroups.onDidChangeTabs((event) => {
        for (const tab of event.closed) {
          const closed = tab.input instanceof vscode.TabInputTextDiff ? tab.input.modified.toString() : undefined;
          this.pending.find((each) => each.proposal.toString() === closed)?.answer('dismissed');
        }
      }),
    );
  }

  /** Shows the change and resolves to the user's answer. */
  async ask(change: ProposedChange, token: vscode.CancellationToken): Promise<ReviewAnswer> {
    const proposal = this.texts.add(change.file, change.after);
    const original = change.before === '' ? this.texts.add(change.file.with({ path: `${change.file.path}.empty` }), '') : change.file;
    let answer!: (choice: ReviewAnswer) => void;
    const answered = new Promise<ReviewAnswer>((resolve) => (answer = resolve));
    const entry: Pending = { proposal, answer };
    this.pending.push(entry);
    await this.updateContext();
    const cancelled = token.onCancellationRequested(() => answer('dismissed'));
    try {
      const title = vscode.l10n.t('{0}: GigaChat’s proposed change', plainLabel(change.label));
      await vscode.commands.executeCommand('vscode.diff', original, proposal, title, { preview: false });
      void this.askToApply(change).then((choice) => answer(choice));
      this.asking.fire({ proposal, label: change.label });
      return await answered;
    } finally {
      cancelled.dispose();
      this.pending.splice(this.pending.indexOf(entry), 1);
      await this.updateContext();
      await closeDiff(proposal);
      this.texts.forget(proposal);
      if (original !== change.file) this.texts.forget(original);
    }
  }

  /** The Apply / Discard commands: the change shown in `proposal` (the diff editor's), else the one asked about last. */
  answer(choice: 'apply' | 'discard', proposal?: unknown): void {
    const target = proposal instanceof vscode.Uri ? this.pending.find((each) => each.proposal.toString() === proposal.toString()) : this.pending.at(-1);
    target?.answer(choice);
  }

  private async askToApply(change: ProposedChange): Promise<ReviewAnswer> {
    const apply = vscode.l10n.t('Apply Change');
    const discard = vscode.l10n.t('Discard');
    const question = [vscode.l10n.t('GigaChat wants to change {0}: the diff editor shows the change.', change.label), ...change.notes].join(' ');
    const choice = await notify(change.warn ? 'warning' : 'info', question, [apply, discard]);
    return choice === apply ? 'apply' : choice === discard ? 'discard' : 'dismissed';
  }

  private updateContext(): Thenable<unknown> {
    return vscode.commands.executeCommand('setContext', REVIEWING, this.pending.length > 0);
  }
}

async function closeDiff(proposal: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.toString() === proposal.toString());
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}
