import * as vscode from 'vscode';
import type { TurnError } from '../../shared/protocol';
import { commandId } from '../commands';
import { Disposable } from '../dispose';
import { actionLabel, runErrorAction } from '../errors/errorActions';
import type { Log } from '../log';
import { SETTINGS_SECTION } from '../../shared/settings';

/** How long Snooze turns suggestions off. */
export const SNOOZE_MS = 30 * 60_000;

/**
 * Completions as you type at a glance, in the status bar: on, off or snoozed; busy while a request
 * is out; the model in use; a problem (no key, balance, certificate…) said once here, with its fix
 * in the menu, never as a pop-up per keystroke. A click opens the menu: turn off or on, snooze for
 * 30 minutes, fix the problem, the settings.
 */
export class CompletionStatus extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('gigachat.completions', vscode.StatusBarAlignment.Right, 100));
  private turnedOff = false;
  private snoozedUntil = 0;
  private busy = 0;
  private problem?: TurnError;

  constructor(
    private readonly log: Log,
    private readonly model: () => string,
  ) {
    super();
    this.item.name = vscode.l10n.t('GigaChat Completions');
    this.item.command = commandId('completionsMenu');
    this.show();
  }

  /** Whether suggestions are asked for now (neither turned off nor snoozed). */
  get on(): boolean {
    return !this.turnedOff && Date.now() >= this.snoozedUntil;
  }

  /** Runs a request, showing it busy meanwhile; a success clears a problem shown before. */
  async busyWith<T>(request: () => Promise<T>): Promise<T> {
    this.busy++;
    this.show();
    try {
      const result = await request();
      this.problem = undefined;
      return result;
    } finally {
      this.busy--;
      this.show();
    }
  }

  /** A request failed: said here once (and in the log), until one succeeds. */
  failed(problem: TurnError): void {
    if (this.problem?.kind !== problem.kind) this.log.warn(`Completions: ${problem.message}`);
    this.problem = problem;
    this.show();
  }

  async menu(): Promise<void> {
    type Choice = vscode.QuickPickItem & { run: () => unknown };
    const choices: Choice[] = [];
    for (const action of this.problem?.actions ?? []) choices.push({ label: `$(wrench) ${actionLabel(action)}`, run: () => runErrorAction(action, this.log) });
    if (this.on) {
      choices.push({ label: `$(circle-slash) ${vscode.l10n.t('Turn Off Suggestions as You Type')}`, run: () => this.set(true, 0) });
      choices.push({ label: `$(clock) ${vscode.l10n.t('Snooze for 30 Minutes')}`, run: () => this.set(false, Date.now() + SNOOZE_MS) });
    } else {
      choices.push({ label: `$(check) ${vscode.l10n.t('Turn On Suggestions as You Type')}`, run: () => this.set(false, 0) });
    }
    choices.push({
      label: `$(gear) ${vscode.l10n.t('Settings of Suggestions as You Type')}`,
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.completions`),
    });
    const picked = await vscode.window.showQuickPick(choices, {
      title: this.problem?.message ?? this.describe(),
      placeHolder: vscode.l10n.t('GigaChat Completions'),
    });
    await picked?.run();
  }

  private set(turnedOff: boolean, snoozedUntil: number): void {
    this.turnedOff = turnedOff;
    this.snoozedUntil = snoozedUntil;
    this.show();
    if (snoozedUntil > 0) setTimeout(() => this.show(), SNOOZE_MS + 1000).unref();
  }

  private describe(): string {
    if (this.turnedOff) return vscode.l10n.t('GigaChat suggestions as you type are off.');
    if (!this.on)
      return vscode.l10n.t('GigaChat suggestions as you type are snoozed until {0}.', new Date(this.snoozedUntil).toLocaleTimeString(vscode.env.language));
    return vscode.l10n.t('GigaChat suggests code as you type, with {0}. Tab accepts a suggestion.', this.model());
  }

  private show(): void {
    const icon = this.busy > 0 ? '$(loading~spin)' : this.problem ? '$(warning)' : this.on ? '$(sparkle)' : '$(circle-slash)';
    this.item.text = `${icon} GigaChat`;
    this.item.tooltip = this.problem ? `${this.problem.message}\n\n${vscode.l10n.t('Click for the fix.')}` : this.describe();
    // What the icon says, for screen readers.
    const state = this.busy > 0 ? vscode.l10n.t('asking') : this.problem ? vscode.l10n.t('a problem') : this.on ? vscode.l10n.t('on') : vscode.l10n.t('off');
    this.item.accessibilityInformation = { label: vscode.l10n.t('GigaChat suggestions as you type: {0}', state) };
    this.item.show();
  }
}
