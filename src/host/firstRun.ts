import * as vscode from 'vscode';
import { GIGACHAT_API_PAGE } from './key/accountPage';
import { commandId } from './commands';
import { KeyStore } from './key/secrets';
import { notify } from './notify';

/** The walkthrough as VS Code knows it: `<publisher>.<name>#<id in contributes.walkthroughs>`. */
export const WALKTHROUGH_ID = 'gigachat-vscode.gigachat#start';

/** globalState: the walkthrough was opened once (after install), never again by itself. */
const WALKTHROUGH_SHOWN = 'gigachat.firstRun.walkthroughShown';
/** globalState: the notice that offers a key is done with, once a key was set or the user said not to show it again. */
const KEY_NOTICE_DONE = 'gigachat.firstRun.keyNoticeDone';
/** A context key: true while an authorization key is stored (the walkthrough's "Set the key" step reads it). */
const HAS_KEY_CONTEXT = 'gigachat.hasKey';

/**
 * The guided start: after install nothing else would say that GigaChat needs a key, or where to get
 * one. Opens the walkthrough once, and while no key is set offers one in a notification, until a key
 * is set or the user asks not to be told again. Runs at activation with no service code: the key
 * store reads VS Code's secret storage only.
 */
export function registerFirstRun(context: vscode.ExtensionContext): void {
  const keys = new KeyStore(context.secrets);
  const state = context.globalState;
  if (!state.get(WALKTHROUGH_SHOWN)) {
    void state.update(WALKTHROUGH_SHOWN, true);
    void vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  }
  const noticeDone = () => void state.update(KEY_NOTICE_DONE, true);
  // The walkthrough's "Set the key" step is done whenever a key is there, however it got there.
  const keyPresence = async (): Promise<boolean> => {
    const has = await keys.has();
    await vscode.commands.executeCommand('setContext', HAS_KEY_CONTEXT, has);
    if (has) noticeDone();
    return has;
  };
  context.subscriptions.push(keys.onDidChange(() => void keyPresence()));
  void keyPresence().then(async (has) => {
    if (!has && !state.get(KEY_NOTICE_DONE)) await offerKey(noticeDone);
  });
}

async function offerKey(noticeDone: () => void): Promise<void> {
  const setKey = vscode.l10n.t('Set Key');
  const getKey = vscode.l10n.t('Get a Key');
  const never = vscode.l10n.t("Don't Show Again");
  const chosen = await notify(
    'info',
    vscode.l10n.t("GigaChat answers with your own authorization key from Sber's developer site. Get one there (it takes a few minutes), then set it here."),
    [setKey, getKey, never],
  );
  if (chosen === setKey) await vscode.commands.executeCommand(commandId('setAuthorizationKey'));
  else if (chosen === getKey) await vscode.env.openExternal(vscode.Uri.parse(GIGACHAT_API_PAGE));
  else if (chosen === never) noticeDone();
}
