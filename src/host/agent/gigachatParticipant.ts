import * as vscode from 'vscode';
import { GIGACHAT_API_PAGE } from '../key/accountPage';
import { commandId } from '../commands';
import { actionLabel, WORKBENCH_ACTIONS } from '../errors/errorActions';
import { explainPrompt } from '../explain/explain';
import type { SettingsReader } from '../settings/settingsReader';
import type { KeyStore } from '../key/secrets';
import type { Log } from '../log';
import type { SemanticSearchCommands } from '../search/semanticSearch';
import { mentionsCodebase } from '../../shared/codebaseTag';
import { mentionsWeb } from '../../shared/webTag';
import { agentInstructions } from './agentInstructions';
import { changedFiles, emptyTurnRecord, forHistory, isServiceError, readTurnRecord, CallStates, MAX_TOOL_CALLS } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { describeError } from '../errors/errorDescription';
import { MODEL_VENDOR, PARTICIPANT_COMMANDS, type ParticipantCommand } from '../chatNames';
import type { AppliedEdits } from '../tools/appliedEdits';
import type { ChangeReviews } from '../edits/changeReviews';
import { agentTools } from './agentTools';
import { codebaseQuestion } from './codebaseCommand';
import { historyMessages, userText } from './chatHistory';
import { withReferences } from './promptReferences';
import { searchCommand } from './searchCommand';
import { runAgent } from './agentRun';
import type { TurnMetadata } from './turnMetadata';
import type { TurnUndo } from './undoTurnCommand';
import { countMessage } from '../countMessage';
import { activeFile, projectRulesFor, RULES_BUDGET_TOKENS } from '../workspace/rulesForRequest';

export interface ParticipantServices {
  /** The service client, as the key and settings make it: @gigachat asks the service through the core's chat engine. */
  clients: Pick<ClientProvider, 'get'>;
  search: Pick<SemanticSearchCommands, 'searchQuietly'>;
  /** Where the edit tool says which file each call changed. */
  edits: AppliedEdits;
  /** Where a change waiting for its answer is announced, for the answer to offer Apply and Discard. */
  changes: Pick<ChangeReviews, 'onDidAsk'>;
  /** Keeps what a turn changed, for its Undo This Turn button. */
  undo: Pick<TurnUndo, 'keep'>;
  /** Whether a key is set: without one, every command answers how to set it. */
  keys: Pick<KeyStore, 'has'>;
  settings: Pick<SettingsReader, 'get' | 'settings'>;
  log: Log;
}

/**
 * `@gigachat` in VS Code's Chat view: answers with the GigaChat model chosen in the picker (or the
 * configured one when another vendor's is chosen), as an agent that reads, searches, edits (each
 * change shown and confirmed by the user) and runs tests through VS Code's tools; `/explain`
 * explains the editor's selection, `/search` lists the workspace's passages closest in meaning,
 * `/codebase` (or `#codebase` in the question) answers from them, citing them; `/web` (or `#web`)
 * lets the model search the web and cite its sources. What a turn did is
 * kept with it, also when it fails, and sent with the next questions.
 */
export class GigaChatParticipant {
  /** The calls given out in this window, for their `functions_state_id` when a later question carries them back. */
  private readonly calls = new CallStates();

  constructor(private readonly services: ParticipantServices) {}

  readonly handle: vscode.ChatRequestHandler = async (request, context, stream, token): Promise<vscode.ChatResult> => {
    if (!(await this.services.keys.has())) {
      askForKey(stream);
      return {};
    }
    const command = participantCommand(request.command);
    if (command === 'search') return searchCommand(request.prompt, this.services.search, stream, token);
    const model = await chooseModel(request.model, this.services.settings.get('model'));
    if (!model) {
      askForKey(stream);
      return {};
    }
    const history = historyMessages(context);
    const codebase = command === 'codebase' || mentionsCodebase(request.prompt);
    const webSearch = command === 'web' || mentionsWeb(request.prompt);
    const question =
      command === 'explain'
        ? explainQuestion(request.prompt, stream)
        : codebase
          ? await codebaseQuestion(request.prompt, history, model, this.services, stream, token)
          : request.prompt;
    if (question === undefined) return {};
    const attached = request.references.filter((reference) => !isInstructionsReference(reference));
    const conversation = [...history, userText(await withReferences(question, attached))];
    // Explained code and codebase context are given whole: the answer is grounded in them, not in what tools find.
    const groundedInGivenText = command === 'explain' || codebase;
    // In Restricted Mode, as VS Code's own agent: no tool that reads, searches or changes the folder.
    const restricted = !groundedInGivenText && !vscode.workspace.isTrusted;
    const tools = groundedInGivenText || restricted ? [] : agentTools(request);
    const record = emptyTurnRecord();
    const metadata = (): TurnMetadata => ({ command: codebase ? 'codebase' : command, record: forHistory(record) });
    const journal = this.services.edits.mark();
    try {
      const rules = await projectRulesFor(questionFiles(request), RULES_BUDGET_TOKENS);
      // The rules the answer follows, named before it as VS Code's own agent does.
      for (const file of rules.files) stream.reference(file.uri);
      const instructions = agentInstructions(tools.length > 0, rules.text, this.services.settings.get('systemPrompt'));
      const outcome = await runAgent(
        {
          client: await this.services.clients.get(),
          model: model.id,
          conversation,
          tools,
          instructions,
          webSearch,
          reasoningEffort: this.services.settings.settings().reasoningEffort,
          stream,
          token,
          toolInvocationToken: request.toolInvocationToken,
          edits: this.services.edits,
          changes: this.services.changes,
          calls: this.calls,
          log: this.services.log,
        },
        record,
      );
      // After the answer: VS Code folds what comes before it into its steps, out of sight.
      if (restricted) sayRestricted(stream);
      if (outcome.stoppedAtLimit)
        stream.markdown(`\n\n${countMessage('I stopped after {0|# tool call|# tool calls}. Say "go on" to let me continue.', MAX_TOOL_CALLS)}`);
      this.offerUndo(journal, stream);
      return { metadata: metadata() };
    } catch (error) {
      if (token.isCancellationRequested || error instanceof vscode.CancellationError || (isServiceError(error) && error.kind === 'cancelled'))
        return { metadata: metadata() };
      // In plain words, as the panel says it; describeError logs the detail and the request id.
      const { message } = describeError(error, this.services.log);
      this.services.log.warn(`@gigachat: ${message}`);
      const changed = changedFiles(record);
      // The error below says what failed; what was already done must not look undone.
      // Before the sentence that leads into the error VS Code shows under the answer.
      this.offerUndo(journal, stream);
      if (changed.length > 0) stream.markdown(`\n\n${vscode.l10n.t('Changed {0}; then the request failed:', changed.join(', '))}`);
      return { errorDetails: { message }, metadata: metadata() };
    }
  };

  /** Under a turn that changed files: Undo This Turn, which gives each of them back its text. */
  private offerUndo(journal: number, stream: vscode.ChatResponseStream): void {
    const changes = this.services.edits.changesSince(journal);
    if (changes.length === 0) return;
    const id = this.services.undo.keep(changes);
    stream.button({ command: commandId('undoAgentTurn'), title: vscode.l10n.t('Undo This Turn'), arguments: [id] });
  }

  readonly followups: vscode.ChatFollowupProvider = {
    provideFollowups: (result) => {
      const metadata = (result.metadata ?? {}) as TurnMetadata;
      if (metadata.command === 'search' && metadata.query)
        return [{ prompt: vscode.l10n.t('Answer using the search results: {0}', metadata.query), label: vscode.l10n.t('Ask about these results') }];
      if (metadata.command === 'explain') return [{ prompt: vscode.l10n.t('How could this code be improved?'), label: vscode.l10n.t('Suggest improvements') }];
      const record = readTurnRecord(metadata.record);
      if (!result.errorDetails && record && changedFiles(record).length > 0)
        return [{ prompt: vscode.l10n.t('Run the tests and fix what fails.'), label: vscode.l10n.t('Run the tests') }];
      return [];
    },
  };
}

function participantCommand(name: string | undefined): ParticipantCommand | undefined {
  return PARTICIPANT_COMMANDS.find((command) => command === name);
}

/** No key (or no GigaChat model): what the panel's welcome says, with its buttons. */
function askForKey(stream: vscode.ChatResponseStream): void {
  stream.markdown(
    vscode.l10n.t("GigaChat needs your authorization key to answer: get one on Sber's developer site (it takes a few minutes), then set it here."),
  );
  stream.button({ command: commandId('setAuthorizationKey'), title: actionLabel('setKey') });
  stream.button({ command: 'vscode.open', title: vscode.l10n.t('Get a Key'), arguments: [vscode.Uri.parse(GIGACHAT_API_PAGE)] });
}

/** Why this answer is given without the workspace's files, with the button that trusts the folder. */
function sayRestricted(stream: vscode.ChatResponseStream): void {
  stream.markdown(
    `\n\n_${vscode.l10n.t('This workspace is not trusted (Restricted Mode), so I answer without reading, searching or changing its files. Trust the workspace to let me use them.')}_`,
  );
  stream.button({ command: WORKBENCH_ACTIONS.manageTrust, title: actionLabel('manageTrust') });
}

/** The picker's model when it is GigaChat's; else the `configured` GigaChat model (or any GigaChat model). */
async function chooseModel(picked: vscode.LanguageModelChat, configured: string): Promise<vscode.LanguageModelChat | undefined> {
  if (picked.vendor === MODEL_VENDOR) return picked;
  const models = await vscode.lm.selectChatModels({ vendor: MODEL_VENDOR });
  return models.find((model) => model.id === configured) ?? models[0];
}

/**
 * The rule files VS Code attaches by itself (AGENTS.md, instructions files): @gigachat reads the
 * project's rules its own way (workspace/projectRules.ts: trusted workspaces only, never a secret
 * or an ignored file), and they are not what the user attached.
 */
function isInstructionsReference(reference: vscode.ChatPromptReference): boolean {
  return INSTRUCTIONS_REFERENCE_IDS.some((prefix) => reference.id.startsWith(prefix));
}

/** The ids VS Code gives the rule files it attaches: older releases, then `<kind>__<uri>` from 1.10x on. */
const INSTRUCTIONS_REFERENCE_IDS = ['vscode.prompt.instructions', 'vscode.instructions.file', 'vscode.customizations.index'];

/** The files a question is about, for the rules that apply to them: those it references (`#file`), and the active editor's. */
function questionFiles(request: vscode.ChatRequest): vscode.Uri[] {
  const referenced = request.references
    .filter((reference) => !isInstructionsReference(reference))
    .flatMap(({ value }) => (value instanceof vscode.Uri ? [value] : value instanceof vscode.Location ? [value.uri] : []));
  return [...referenced, ...activeFile()];
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
