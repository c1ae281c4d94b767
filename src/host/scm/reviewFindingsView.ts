import * as vscode from 'vscode';
import type { PlacedFinding, Severity } from '../../core';
import { fencedCode } from '../../shared/fencedCode';
import { Disposable } from '../dispose';

/** A finding as shown: where, what the lines said when it was made (a Fix applies only to those), and its two faces. */
export interface ShownFinding {
  id: string;
  uri: vscode.Uri;
  finding: PlacedFinding;
  /** The text of lines first..last in the reviewed change: a Fix applies only while the file reads so. */
  original: string;
  thread: vscode.CommentThread;
  diagnostic: vscode.Diagnostic;
}

/** A finding to show: the file it is in and the text of its lines in the reviewed change. */
export interface FindingToShow {
  uri: vscode.Uri;
  finding: PlacedFinding;
  original: string;
}

export const REVIEW_CONTROLLER_ID = 'gigachat.review';
/** Threads with a suggestion carry this context value: the Fix button shows on them only. */
const FIXABLE = 'gigachatFinding.fixable';
const PLAIN = 'gigachatFinding';

const DIAGNOSTIC_SEVERITY: Record<Severity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/**
 * A review's findings where reviews live in VS Code: a comment thread on the lines of each (the
 * Comments API: Fix and Dismiss in the thread's title) and a Problems entry (Fix and Dismiss as
 * quick fixes). The model is untrusted, so its words are shown as text: escaped into markdown that
 * runs no command and renders no HTML. A new review replaces the previous one's findings.
 */
export class ReviewFindingsView extends Disposable {
  private readonly controller = this._register(vscode.comments.createCommentController(REVIEW_CONTROLLER_ID, vscode.l10n.t('GigaChat Review')));
  private readonly diagnostics = this._register(vscode.languages.createDiagnosticCollection('GigaChat review'));
  private readonly shown = new Map<string, ShownFinding>();
  private nextId = 1;

  constructor() {
    super();
    this._register({ dispose: () => this.clear() });
  }

  /** Shows a review's findings in place of the previous review's. */
  replace(findings: readonly FindingToShow[]): void {
    this.clear();
    for (const { uri, finding, original } of findings) {
      const id = String(this.nextId++);
      const range = new vscode.Range(finding.first - 1, 0, finding.last - 1, Number.MAX_SAFE_INTEGER);
      const thread = this.controller.createCommentThread(uri, range, [comment(finding)]);
      thread.label = vscode.l10n.t('GigaChat Review');
      thread.canReply = false;
      thread.contextValue = finding.suggestion !== undefined ? FIXABLE : PLAIN;
      thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      const diagnostic = new vscode.Diagnostic(range, `${finding.title}: ${finding.reasoning}`, DIAGNOSTIC_SEVERITY[finding.severity]);
      diagnostic.source = 'GigaChat';
      this.shown.set(id, { id, uri, finding, original, thread, diagnostic });
    }
    this.publish();
  }

  /** The finding a command was given: its comment thread (from the thread's title), or its id (from a quick fix). */
  find(target: unknown): ShownFinding | undefined {
    if (typeof target === 'string') return this.shown.get(target);
    return [...this.shown.values()].find((each) => each.thread === target);
  }

  /** The findings on a file's lines within `range`, for its quick fixes. */
  at(uri: vscode.Uri, range: vscode.Range): ShownFinding[] {
    return [...this.shown.values()].filter((each) => each.uri.toString() === uri.toString() && each.diagnostic.range.intersection(range) !== undefined);
  }

  /** Removes a finding (dismissed, or fixed). */
  remove(finding: ShownFinding): void {
    if (!this.shown.delete(finding.id)) return;
    finding.thread.dispose();
    this.publish();
  }

  private clear(): void {
    for (const each of this.shown.values()) each.thread.dispose();
    this.shown.clear();
    this.diagnostics.clear();
  }

  private publish(): void {
    const byFile = new Map<string, { uri: vscode.Uri; list: vscode.Diagnostic[] }>();
    for (const each of this.shown.values()) {
      const entry = byFile.get(each.uri.toString()) ?? { uri: each.uri, list: [] };
      entry.list.push(each.diagnostic);
      byFile.set(each.uri.toString(), entry);
    }
    this.diagnostics.clear();
    for (const { uri, list } of byFile.values()) this.diagnostics.set(uri, list);
  }
}

const SEVERITY_NAME: Record<Severity, () => string> = {
  error: () => vscode.l10n.t('Error'),
  warning: () => vscode.l10n.t('Warning'),
  info: () => vscode.l10n.t('Note'),
};

/** The comment: severity and title, the reasoning, and the suggestion as code; the model's text escaped. */
function comment(finding: PlacedFinding): vscode.Comment {
  const body = new vscode.MarkdownString(undefined, false);
  body.isTrusted = false;
  body.supportHtml = false;
  body.appendMarkdown(`**${SEVERITY_NAME[finding.severity]()}**: `);
  body.appendText(finding.title);
  body.appendMarkdown('\n\n');
  if (finding.outsideChange) {
    body.appendText(
      vscode.l10n.t('GigaChat named line {0}, outside the change; the finding is shown at the top of the file.', String(finding.outsideChange.line)),
    );
    body.appendMarkdown('\n\n');
  }
  body.appendText(finding.reasoning);
  if (finding.suggestion !== undefined) {
    body.appendMarkdown(`\n\n${vscode.l10n.t('Suggested fix:')}\n`);
    body.appendMarkdown(fencedCode(finding.suggestion, ''));
  }
  return { body, mode: vscode.CommentMode.Preview, author: { name: 'GigaChat' } };
}

/** Lines first..last of a document, 1-based, joined with \n whatever the file's line ends (as a diff's lines are). */
export function linesText(document: vscode.TextDocument, first: number, last: number): string {
  const lines: string[] = [];
  for (let line = first - 1; line < last; line++) lines.push(document.lineAt(line).text);
  return lines.join('\n');
}
