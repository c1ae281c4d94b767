import * as vscode from 'vscode';
import { MODEL_VENDOR, OWN_TOOLS, PARTICIPANT_ID, type OwnToolKey } from './chatNames';
import type { ServicesLoader } from './servicesLoader';
import { toolText } from './tools/toolText';

/**
 * GigaChat in VS Code's own Chat: the model provider, `@gigachat` and the language model tools,
 * registered at activation as VS Code requires, each reaching its code through `services` on
 * first use (see servicesLoader.ts), so activation still loads nothing else.
 */
export function registerVsCodeChat(context: vscode.ExtensionContext, services: ServicesLoader): void {
  const modelsChanged = new vscode.EventEmitter<void>();
  let forwarding = false;
  const models = () => {
    const provider = services().languageModels;
    if (!forwarding) {
      forwarding = true;
      context.subscriptions.push(provider.onDidChangeLanguageModelChatInformation(() => modelsChanged.fire()));
    }
    return provider;
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (...args) => services().participant.handle(...args));
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = { provideFollowups: (...args) => services().participant.followups.provideFollowups(...args) };
  context.subscriptions.push(
    modelsChanged,
    vscode.lm.registerLanguageModelChatProvider(MODEL_VENDOR, {
      onDidChangeLanguageModelChatInformation: modelsChanged.event,
      provideLanguageModelChatInformation: (options) => models().provideLanguageModelChatInformation(options),
      provideLanguageModelChatResponse: (...args) => models().provideLanguageModelChatResponse(...args),
      provideTokenCount: (model, text) => models().provideTokenCount(model, text),
    }),
    participant,
    ...(Object.keys(OWN_TOOLS) as OwnToolKey[]).map((key) =>
      vscode.lm.registerTool(OWN_TOOLS[key], {
        prepareInvocation: (...args) => services().tools[key].prepareInvocation?.(...args),
        // @gigachat offers no tool in Restricted Mode; another caller is refused here too.
        invoke: (...args) => (vscode.workspace.isTrusted ? services().tools[key].invoke(...args) : restrictedToolResult()),
      }),
    ),
  );
  announceModels();
  // eslint-disable-next-line no-restricted-syntax -- VS Code's own setting, watched at activation (the settings reader loads later, with services.js)
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration(AI_FEATURES_OFF) && announceModels()));
}

/** What a tool answers in Restricted Mode: it reads, searches and changes nothing. */
function restrictedToolResult(): vscode.LanguageModelToolResult {
  return toolText(vscode.l10n.t("GigaChat's tools are off in Restricted Mode: the workspace is not trusted, so nothing of it was read or changed."));
}

/** VS Code's setting that hides its Chat and everything AI in it; when set, GigaChat stays out of it too. */
const AI_FEATURES_OFF = 'chat.disableAIFeatures';

/**
 * VS Code asks a provider for its models only once something selects them, and its Chat view
 * chooses a model when it opens: without this, the view opens with no model and a request to
 * `@gigachat` fails with "Language model unavailable". Selecting them here, at startup, makes them
 * known first (the list is the configured model at once, the account's list just after).
 */
function announceModels(): void {
  // eslint-disable-next-line no-restricted-syntax -- VS Code's own setting, read at activation (the settings reader loads later, with services.js)
  if (vscode.workspace.getConfiguration().get<boolean>(AI_FEATURES_OFF)) return;
  void vscode.lm.selectChatModels({ vendor: MODEL_VENDOR });
}
