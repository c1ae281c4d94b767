import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { completesBlock, isServiceError, sendableRequest, Suggester, worthCompleting, type Completion, type CompletionRequest } from '../../core';
import { abortSignalOf } from '../cancellation';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { describeError } from '../errors/errorDescription';
import type { Log } from '../log';
import type { KeyStore } from '../key/secrets';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import type { TrustedRoot } from '../trust/trustedRoot';
import { Completers, type Completer } from './completers';
import { CompletionStatus } from './completionStatus';
import type { ServerKeyStore } from './serverKey';
import { describeServerError } from './serverProblems';

/** How long a file's verdict (may it be sent?) is trusted before the workspace's rules are read again. */
const VERDICT_MS = 30_000;
/** The files open beside the one being edited that lend it context: how many, and how much of each around its cursor. */
const NEIGHBOURS = { files: 2, lines: 30, chars: 1_500 };
/** The longest answer: a block, or one line. */
const MAX_TOKENS = { block: 160, line: 48 };

/**
 * GigaChat's code in grey at the cursor (VS Code's inline completions). Asked only where it is
 * wanted and allowed: the language is on in `gigachat.completions.enable`, the workspace is
 * trusted, the completer can be asked (GigaChat's key is set, or a server of the user's is
 * named), the suggestions are neither off nor snoozed, and the file is one the workspace port lets
 * be sent (nothing of a secret, an ignored file or a file outside the workspace goes, not even as
 * context). Whether to ask at all, and when, is the core's Suggester's: cache, a request still out
 * that typing extends, a pause in typing, stale requests aborted.
 */
export class InlineCompletions implements vscode.InlineCompletionItemProvider, vscode.Disposable {
  readonly status: CompletionStatus;
  readonly serverKey: ServerKeyStore;
  private readonly completers: Completers;
  private readonly suggester = new Suggester();
  private readonly verdicts = new Map<string, { allowed: boolean; at: number }>();
  private readonly sessions = new Map<string, string>();
  /** The completer of the last request, as the status bar names it. */
  private model: string;
  /** The document of the last call, whose edits may make a request still out stale. */
  private asked?: vscode.TextDocument;
  private readonly edits: vscode.Disposable;
  /** The file and count of the last masking logged. */
  private maskNote?: string;

  constructor(
    clients: ClientProvider,
    private readonly settings: SettingsReader,
    keys: KeyStore,
    serverKey: ServerKeyStore,
    trustedRoot: TrustedRoot,
    private readonly log: Log,
  ) {
    this.serverKey = serverKey;
    this.model = settings.get('completions.model');
    this.completers = new Completers(clients, settings, keys, serverKey, trustedRoot, log);
    this.status = new CompletionStatus(log, () => this.model);
    this.edits = vscode.workspace.onDidChangeTextDocument((event) => this.edited(event));
  }

  async provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.InlineCompletionItem[]> {
    if (!this.wanted(document)) return [];
    const completer = await this.completers.current();
    // Suggestions had from another model are not this one's.
    if (completer.name !== this.model) this.suggester.clear();
    this.model = completer.name;
    if (!(await completer.ready()) || !(await this.allowed(document.uri))) return [];
    const line = document.lineAt(position.line).text;
    const site = { lineBefore: line.slice(0, position.character), lineAfter: line.slice(position.character), languageId: document.languageId };
    const explicit = context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke;
    if (!explicit && !worthCompleting(site)) return [];
    const text = document.getText();
    const offset = document.offsetAt(position);
    this.asked = document;
    const multiline = completesBlock(site);
    const cancellation = abortSignalOf(token);
    try {
      const suggestion = await this.suggester.suggest(
        { prefix: text.slice(0, offset), suffix: text.slice(offset), explicit, debounceMs: this.settings.clamped('completions.debounceMs') },
        async () =>
          this.sendable({
            model: this.settings.get('completions.model'),
            path: vscode.workspace.asRelativePath(document.uri),
            languageId: document.languageId,
            text,
            offset,
            multiline,
            budgetChars: this.settings.clamped('completions.contextTokens') * 4,
            maxTokens: multiline ? MAX_TOKENS.block : MAX_TOKENS.line,
            indent: indentUnit(document),
            neighbours: await this.neighbours(document),
          }),
        (request, options) => this.status.busyWith(() => this.ask(completer, request, { ...options, sessionId: this.sessionOf(document.uri) })),
        cancellation.signal,
      );
      return suggestion && !token.isCancellationRequested ? [new vscode.InlineCompletionItem(suggestion, new vscode.Range(position, position))] : [];
    } catch (error) {
      if (isServiceError(error) && error.kind === 'cancelled') return [];
      // The account's streams were busy: the next pause in typing asks again; nothing to fix.
      if (isServiceError(error) && error.kind === 'rateLimit' && !completer.server) {
        this.log.debug(`Completions: skipped, ${error.message}`);
        return [];
      }
      this.status.failed(completer.server ? describeServerError(error, completer.server, this.log) : describeError(error, this.log));
      return [];
    } finally {
      cancellation.dispose();
    }
  }

  /** The request with what looks like a token or password masked (sendableRequest); the log says so once per file and count. */
  private sendable(request: CompletionRequest): CompletionRequest {
    const { request: sendable, masked } = sendableRequest(request);
    const note = `${request.path}:${masked}`;
    if (masked > 0 && note !== this.maskNote) {
      this.maskNote = note;
      this.log.info(`Completions: ${masked} value(s) in ${request.path} or the files open beside it look like a token or password; masked in what is sent.`);
    }
    return sendable;
  }

  private ask(completer: Completer, request: CompletionRequest, options: Parameters<Completer['complete']>[1]): Promise<Completion> {
    return completer.complete(request, {
      ...options,
      onUsage: (usage) => this.log.info(`Completion: ${usage.prompt_tokens} prompt tokens, ${usage.precached_prompt_tokens ?? 0} of them cached.`),
    });
  }

  dispose(): void {
    this.edits.dispose();
    this.suggester.clear();
    this.completers.dispose();
    this.status.dispose();
  }

  /** Typing reaches a request still out through the document: one edit, the cursor after what it inserted. */
  private edited(event: vscode.TextDocumentChangeEvent): void {
    if (event.document !== this.asked || event.contentChanges.length === 0 || !this.suggester.asking) return;
    const text = event.document.getText();
    const [change] = event.contentChanges;
    // Several changes at once (multiple cursors, a format) lead nowhere a request can still serve.
    const cursor = event.contentChanges.length === 1 ? change.rangeOffset + change.text.length : 0;
    this.suggester.edited({ prefix: text.slice(0, cursor), suffix: text.slice(cursor) });
  }

  /** On for the file's language, in a trusted workspace, while VS Code shows inline suggestions and they are not off or snoozed. */
  private wanted(document: vscode.TextDocument): boolean {
    if (!this.status.on || !vscode.workspace.isTrusted) return false;
    // eslint-disable-next-line no-restricted-syntax -- the editor's own setting, for the document's language
    if (!vscode.workspace.getConfiguration('editor', document).get<boolean>('inlineSuggest.enabled', true)) return false;
    const enable = this.settings.get('completions.enable');
    return enable[document.languageId] ?? enable['*'] ?? true;
  }

  /** Whether the file may be sent: an untitled one, or one the workspace port lets through (remembered a while). */
  private async allowed(uri: vscode.Uri): Promise<boolean> {
    if (uri.scheme === 'untitled') return true;
    const key = uri.toString();
    const known = this.verdicts.get(key);
    if (known && Date.now() - known.at < VERDICT_MS) return known.allowed;
    const allowed = !isRefusal(await new WorkspacePort().judge(uri));
    this.verdicts.set(key, { allowed, at: Date.now() });
    return allowed;
  }

  /**
   * Short excerpts of the files open beside `document`, around their cursors: what the user is
   * looking at while typing. Only files the workspace port lets be sent.
   */
  private async neighbours(document: vscode.TextDocument): Promise<{ path: string; text: string }[]> {
    const excerpts: { path: string; text: string }[] = [];
    for (const editor of vscode.window.visibleTextEditors) {
      const other = editor.document;
      if (excerpts.length >= NEIGHBOURS.files || other === document || other.uri.scheme === 'untitled' || !(await this.allowed(other.uri))) continue;
      const middle = editor.selection.active.line;
      const first = Math.max(0, middle - NEIGHBOURS.lines / 2);
      const last = Math.min(other.lineCount - 1, first + NEIGHBOURS.lines);
      const text = other.getText(new vscode.Range(first, 0, last, other.lineAt(last).text.length)).slice(0, NEIGHBOURS.chars);
      if (text.trim()) excerpts.push({ path: vscode.workspace.asRelativePath(other.uri), text });
    }
    return excerpts;
  }

  /** One session per file: successive requests share their prefix, which the service's prompt cache serves. */
  private sessionOf(uri: vscode.Uri): string {
    const key = uri.toString();
    let session = this.sessions.get(key);
    if (!session) this.sessions.set(key, (session = randomUUID()));
    return session;
  }
}

/** The file's indentation unit, as its editor has it. */
function indentUnit(document: vscode.TextDocument): string {
  const editor = vscode.window.visibleTextEditors.find((visible) => visible.document === document);
  const { insertSpaces = true, tabSize = 4 } = editor?.options ?? {};
  return insertSpaces === false ? '\t' : ' '.repeat(typeof tabSize === 'number' ? tabSize : 4);
}
