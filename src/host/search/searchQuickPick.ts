import * as path from 'node:path';
import * as vscode from 'vscode';
import { messageOf, bestScore, isDimensionsChanged, matchStrength, relevantHits, type MatchStrength, type SearchHit } from '../../core';
import { showErrorNotification } from '../errors/errorActions';
import type { Log } from '../log';
import type { WorkspaceIndex } from './workspaceIndex';
import { countMessage } from '../countMessage';
import { plainLabel } from '../plainLabel';
import { notify } from '../notify';

/** Results shown per query. */
const RESULT_COUNT = 20;

/** Results scoring under this share of the best one are left out: they have next to nothing in common with the question. */
const NOISE_SHARE = 0.1;

interface ResultItem extends vscode.QuickPickItem {
  hit: SearchHit;
}

export interface SearchPickerOptions {
  index: WorkspaceIndex;
  log: Log;
  /** Sends the results to the chat ("ask about these"). */
  askAbout: (query: string, hits: readonly SearchHit[]) => Promise<void>;
  /** Searched at once when given (a keybinding or another command can pass the question). */
  initialQuery?: string;
  /** The whole search command, which builds the index first: the retry after the index had to be dropped. */
  searchAnew: (query: string) => Promise<void>;
}

/**
 * The results UI: type a question and press Enter; the closest chunks appear with file, lines,
 * how well each matches (strong, good, weak) and a one-line preview. Moving through them previews each in the editor with its lines
 * highlighted; Enter opens it; Escape returns to the editor the search started from. A title-bar
 * button sends the results to the chat as context.
 */
export function showSearchPicker(options: SearchPickerOptions): void {
  const { index, log } = options;
  const pick = vscode.window.createQuickPick<ResultItem>();
  const highlight = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
    isWholeLine: true,
  });
  const askButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('comment-discussion'),
    tooltip: vscode.l10n.t('Ask GigaChat about these results'),
  };
  const origin = vscode.window.activeTextEditor;
  let searched: string | undefined;
  let hits: SearchHit[] = [];
  let opened = false;
  let generation = 0;

  pick.title = vscode.l10n.t('GigaChat: Semantic Search');
  pick.placeholder = vscode.l10n.t('What are you looking for? E.g. “where do we retry uploads?”');
  pick.matchOnDescription = false;
  pick.matchOnDetail = false;
  pick.ignoreFocusOut = true; // previews open editors; the results must stay
  pick.value = options.initialQuery ?? '';

  const search = async (query: string) => {
    const mine = ++generation;
    searched = query;
    pick.busy = true;
    pick.title = vscode.l10n.t('Searching for “{0}”…', query);
    pick.items = [];
    pick.buttons = [];
    try {
      const found = await index.search(query, RESULT_COUNT);
      if (mine !== generation) return;
      hits = withoutNoise(found);
      const best = bestScore(hits);
      pick.items = hits.map((hit) => toItem(hit, best));
      pick.buttons = hits.length > 0 ? [askButton] : [];
      // The query stays in the title: once the input is edited, it tells which question the list answers.
      pick.title =
        hits.length > 0
          ? countMessage('{0|# result|# results} for “{1}”', hits.length, query)
          : found.length > 0
            ? vscode.l10n.t('Nothing in the workspace matches “{0}”.', query)
            : vscode.l10n.t('Nothing indexed to search: see the GigaChat log for the files that were skipped.');
    } catch (error) {
      if (mine !== generation) return;
      searched = undefined; // Enter tries again
      // The index was dropped (the model's vectors changed length): only the whole command builds it again.
      const retry = isDimensionsChanged(error) ? () => (pick.hide(), options.searchAnew(query)) : () => search(query);
      void showErrorNotification(error, log, retry);
    } finally {
      if (mine === generation) pick.busy = false;
    }
  };

  let previewing: Promise<unknown> = Promise.resolve();
  const preview = async (item: ResultItem | undefined) => {
    if (!item || opened) return;
    const editor = await showRange(item.hit, { preview: true, preserveFocus: true });
    editor.setDecorations(highlight, [rangeOf(item.hit)]);
  };

  pick.onDidAccept(async () => {
    const query = pick.value.trim();
    if (query && query !== searched) return search(query);
    const chosen = pick.activeItems[0];
    if (!chosen) return;
    opened = true;
    pick.hide();
    await previewing; // a preview still opening would move the cursor back to the result's start
    let editor: vscode.TextEditor;
    try {
      editor = await showRange(chosen.hit, { preview: false, preserveFocus: false, selectWhole: true });
    } catch (error) {
      highlight.dispose();
      log.warn(`Search: could not open ${chosen.hit.path}: ${messageOf(error)}`);
      void notify(
        'warning',
        vscode.l10n.t(
          'Could not open {0}: it may have been moved or deleted since it was indexed.',
          vscode.workspace.asRelativePath(vscode.Uri.parse(chosen.hit.path)),
        ),
      );
      return;
    }
    editor.setDecorations(highlight, [rangeOf(chosen.hit)]);
    // The highlight marks where the result is; it goes once the user moves on.
    const moved = vscode.window.onDidChangeTextEditorSelection((event) => {
      if (event.textEditor !== editor || event.selections[0]?.isEqual(editor.selection)) return;
      moved.dispose();
      highlight.dispose();
    });
  });
  pick.onDidChangeActive((items) => {
    previewing = preview(items[0]).catch((error) => log.warn(`Search preview failed: ${messageOf(error)}`));
  });
  pick.onDidTriggerButton(async (button) => {
    if (button !== askButton || !searched || hits.length === 0) return;
    opened = true;
    highlight.dispose();
    pick.hide();
    await options.askAbout(searched, hits).catch((error) => showErrorNotification(error, log));
  });
  pick.onDidHide(() => {
    generation++;
    pick.dispose();
    if (opened) return;
    highlight.dispose();
    // Escape: back to where the search started, as VS Code's own Go to File does.
    if (origin) void vscode.window.showTextDocument(origin.document, { viewColumn: origin.viewColumn, selection: origin.selection, preview: false });
  });

  pick.show();
  if (pick.value.trim()) void search(pick.value.trim());
}

function withoutNoise(found: readonly SearchHit[]): SearchHit[] {
  return relevantHits(found, NOISE_SHARE);
}

const MATCH_WORDS: Record<MatchStrength, () => string> = {
  strong: () => vscode.l10n.t('strong match'),
  good: () => vscode.l10n.t('good match'),
  weak: () => vscode.l10n.t('weak match'),
};

/** A result's row; `best`: the score of the query's best result, which its match is told against. */
function toItem(hit: SearchHit, best: number): ResultItem {
  const uri = vscode.Uri.parse(hit.path);
  const relative = vscode.workspace.asRelativePath(uri);
  const lines = hit.startLine === hit.endLine ? `${hit.startLine + 1}` : `${hit.startLine + 1}–${hit.endLine + 1}`;
  const folder = path.posix.dirname(relative) === '.' ? '' : plainLabel(path.posix.dirname(relative));
  return {
    hit,
    label: `$(file-code) ${plainLabel(path.posix.basename(uri.path))}:${lines}`,
    description: [folder, MATCH_WORDS[matchStrength(hit.score, best, hit.exact)]()].filter(Boolean).join(' · '),
    detail: plainLabel(firstMeaningfulLine(hit.preview)),
    alwaysShow: true, // results are ranked by meaning; the typed words must not filter them out
  };
}

function firstMeaningfulLine(preview: string): string {
  const line = preview.split(/\r?\n/).find((candidate) => candidate.trim().length > 0) ?? '';
  const trimmed = line.trim().replace(/\s+/g, ' ');
  return trimmed.length > 160 ? `${trimmed.slice(0, 159)}…` : trimmed;
}

function rangeOf(hit: SearchHit): vscode.Range {
  return new vscode.Range(hit.startLine, 0, hit.endLine, 0);
}

/** Shows the hit's file scrolled to it; `selectWhole` selects its lines (else the cursor goes to its start). */
async function showRange(hit: SearchHit, options: { preview: boolean; preserveFocus: boolean; selectWhole?: boolean }): Promise<vscode.TextEditor> {
  const selection = options.selectWhole ? new vscode.Range(hit.startLine, 0, hit.endLine + 1, 0) : new vscode.Range(hit.startLine, 0, hit.startLine, 0);
  const editor = await vscode.window.showTextDocument(vscode.Uri.parse(hit.path), {
    preview: options.preview,
    preserveFocus: options.preserveFocus,
    selection,
  });
  editor.revealRange(rangeOf(hit), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}
