import * as vscode from 'vscode';
import { commandId } from '../commands';
import { actionLabel } from '../errors';
import { explainPrompt } from '../explain';
import { readSettings } from '../config';
import type { Log } from '../log';
import type { SemanticSearchCommands } from '../search/semanticSearch';
import { mentionsCodebase } from '../../shared/codebaseTag';
import { agentInstructions } from './agentInstructions';
import { agentTools, OWN_TOOLS } from './agentTools';
import { codebaseQuestion } from './codebaseCommand';
import { historyMessages } from './chatHistory';
import { withReferences } from './promptReferences';
import { searchCommand } from './searchCommand';
import { runAgent, MAX_TOOL_CALLS } from './toolLoop';

export interface ParticipantServices {
  search: Pick<SemanticSearchCommands, 'searchQuietly'>;
  log: Log;
}

/** What a turn did, kept by VS Code with it: the follow-ups read it. */
export interface TurnMetadata {
  command?: string;
  query?: string;
  edited?: boolean;
}

/**
 * `@gigachat` in VS Code's Chat view: answers with the GigaChat model chosen in the picker (or the
 * configured one when another vendor's is chosen), as an agent that reads, searches, edits (with a
 * diff the user accepts) and runs tests through VS Code's tools; `/explain` explains the editor's
 * selection, `/search` lists the workspace's passages closest in meaning, `/codebase` (or
 * `#codebase` in the question) answers from them, citing them.
 */
export class GigaChatParticipant {
  constructor(private readonly services: ParticipantServices) {}

  readonly handle: vscode.ChatRequestHandler = async (request, context, stream, token): Promise<vscode.ChatResult> => {
    if (request.command === 'search') return searchCommand(request.prompt, this.services.search, stream, token);
    const model = await chooseModel(request.model);
    if (!model) {
      stream.markdown(vscode.l10n.t('No GigaChat model is available: set your GigaChat authorization key to use @gigachat.'));
      stream.button({ command: commandId('setAuthorizationKey'), title: actionLabel('setKey') });
      return {};
    }
    const history = historyMessages(context);
    const codebase = request.command === 'codebase' || mentionsCodebase(request.prompt);
    const question =
      request.command === 'explain'
        ? explainQuestion(request.prompt, stream)
        : codebase
          ? await codebaseQuestion(request.prompt, history, model, this.services.search, stream, token)
          : request.prompt;
    if (question === undefined) return {};
    const messages = [...history, vscode.LanguageModelChatMessage.User(await withReferences(question, request.references))];
    // Explained code and codebase context are given whole: the answer is grounded in them, not in what tools find.
    const tools = request.command === 'explain' || codebase ? [] : agentTools(request);
    try {
      const instructions = agentInstructions(tools.length > 0);
      const outcome = await runAgent({ model, messages, tools, instructions, stream, token, toolInvocationToken: request.toolInvocationToken });
      if (outcome.stoppedAtLimit) stream.markdown(`\n\n${vscode.l10n.t('I stopped after {0} tool calls. Say "go on" to let me continue.', MAX_TOOL_CALLS)}`);
      const metadata: TurnMetadata = {
        command: codebase ? 'codebase' : request.command,
        edited: outcome.toolsRun.includes(OWN_TOOLS.editFile),
      };
      return { metadata };
    } catch (error) {
      if (token.isCancellationRequested || error instanceof vscode.CancellationError) return {};
      this.services.log.warn(`@gigachat: ${(error as Error).message}`);
      return { errorDetails: { message: (error as Error).message } };
    }
  };

  readonly followups: vscode.ChatFollowupProvider = {
    provideFollowups: (result) => {
      const metadata = (result.metadata ?? {}) as TurnMetadata;
      if (metadata.command === 'search' && metadata.query)
        return [{ prompt: vscode.l10n.t('Answer using the search results: {0}', metadata.query), label: vscode.l10n.t('Ask about these results') }];
      if (metadata.command === 'explain') return [{ prompt: vscode.l10n.t('How could this code be improved?'), label: vscode.l10n.t('Suggest improvements') }];
      if (metadata.edited) return [{ prompt: vscode.l10n.t('Run the tests and fix what fails.'), label: vscode.l10n.t('Run the tests') }];
      return [];
    },
  };
}

/** The picker's model when it is GigaChat's; else the configured GigaChat model (or any GigaChat model). */
async function chooseModel(picked: vscode.LanguageModelChat): Promise<vscode.LanguageModelChat | undefined> {
  if (picked.vendor === 'gigachat') return picked;
  const models = await vscode.lm.selectChatModels({ vendor: 'gigachat' });
  const configured = readSettings().model;
  return models.find((model) => model.id === configured) ?? models[0];
}

/** `/explain`: the editor's selection, with what the user added; undefined (and says so) when nothing is selected. */
function explainQuestion(added: string, stream: vscode.ChatResponseStream): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    stream.markdown(vscode.l10n.t('Select the code to explain in an editor, then ask `@gigachat /explain` again.'));
    return undefined;
  }
  stream.reference(new vscode.Location(editor.document.uri, editor.selection));
  const prompt = explainPrompt(editor.document, editor.selection);
  if (prompt.notice) stream.markdown(`_${prompt.notice}_\n\n`);
  return added.trim() ? `${prompt.text}\n\n${added.trim()}` : prompt.text;
}
