import * as vscode from 'vscode';
import { codebaseBudget, fitPassages, mergeHits, modelLimits, relevantHits, type Passage, type QuotedPassage } from '../../core';
import { citationText, type FileLocation } from '../../shared/fileLinks';
import type { TurnError } from '../../shared/protocol';
import type { CodebaseSource, FoundContext } from '../chat/chatDependencies';
import { CodebaseUnavailable } from '../chat/codebaseTurn';
import { fencedCode } from '../../shared/fencedCode';
import { relativeFile } from '../codeExcerpts';
import { readSetting } from '../config';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import type { QuietSearch, SemanticSearchCommands } from './semanticSearch';
import { countMessage } from '../countMessage';

/** Chunks asked of the index for one question: more than fit most budgets, so the budget decides, not the count. */
const CANDIDATES = 40;
/**
 * Chunks scoring under this share of the best are not sent: each passage costs tokens the model
 * reads, and one much further from the question than the best rarely helps the answer (the search
 * picker, which costs nothing to show, keeps more: down to a tenth).
 */
const RELEVANT_SHARE = 0.5;

/** A passage read back from its file, with where it is as the workspace names it. */
interface ReadPassage extends QuotedPassage {
  uri: vscode.Uri;
  /** The file's path as the chat names it (relative to the workspace). */
  file: string;
  language: string;
}

/** A passage that goes with the question, and the lines it quotes (after the budget, which may have cut it). */
export interface ChosenPassage extends ReadPassage {
  location: FileLocation;
}

/**
 * Codebase context from the workspace's semantic search: the passages closest to a question,
 * merged per file and taken best first within the budget, under the search command's rules
 * (before the user agreed to indexing nothing is listed, indexed or sent).
 */
export function workspaceCodebase(search: Pick<SemanticSearchCommands, 'searchQuietly'>): CodebaseSource {
  return {
    find: async (question, room, signal) => {
      const limits = modelLimits(room.model, readSetting('modelTokenLimits'));
      const budget = codebaseBudget({
        maxInputTokens: limits.maxInputTokens,
        answerTokens: room.answerTokens ?? limits.maxOutputTokens,
        conversationTokens: room.conversationTokens,
      });
      const found = await findPassages(search, question, budget, signal);
      if (found.kind !== 'passages') throw new CodebaseUnavailable(unavailable(found.kind));
      return foundContext(found);
    },
  };
}

export type FoundPassages = { kind: 'passages'; passages: ChosenPassage[]; left: number; indexedFiles?: number } | Exclude<QuietSearch, { kind: 'hits' }>;

/** The passages closest to `question` that fit `budget` tokens, read from their files now; or why the workspace cannot be searched. */
export async function findPassages(
  search: Pick<SemanticSearchCommands, 'searchQuietly'>,
  question: string,
  budget: number,
  signal?: AbortSignal,
): Promise<FoundPassages> {
  const outcome = await search.searchQuietly(question, CANDIDATES, signal);
  if (outcome.kind !== 'hits') return outcome;
  const port = new WorkspacePort();
  const merged = mergeHits(relevantHits(outcome.hits, RELEVANT_SHARE));
  const read = (await Promise.all(merged.map((passage) => readPassage(passage, port)))).filter((passage) => passage !== undefined);
  const { chosen, left } = fitPassages(read, budget);
  const passages = chosen.map((passage) => ({ ...passage, location: { file: passage.file, first: passage.startLine + 1, last: passage.endLine + 1 } }));
  return { kind: 'passages', passages, left, indexedFiles: outcome.indexedFiles };
}

/**
 * The passage's lines as its file holds them now; undefined when the file has gone since it was
 * indexed, or the workspace port refuses it now (a link put in its place, a rule that excludes it).
 */
async function readPassage(passage: Passage, port: WorkspacePort): Promise<ReadPassage | undefined> {
  const file = await port.judge(vscode.Uri.parse(passage.path));
  if (isRefusal(file) || !file.exists) return undefined;
  const document = await vscode.workspace.openTextDocument(file.uri).then(undefined, () => undefined);
  if (!document || passage.startLine >= document.lineCount) return undefined;
  const endLine = Math.min(passage.endLine, document.lineCount - 1);
  const text = document.getText(new vscode.Range(passage.startLine, 0, endLine, Number.MAX_SAFE_INTEGER));
  return { ...passage, endLine, text, uri: document.uri, file: relativeFile(document.uri), language: document.languageId };
}

export function foundContext(found: Extract<FoundPassages, { kind: 'passages' }>): FoundContext {
  const { passages, left, indexedFiles } = found;
  const notices = [
    indexedFiles !== undefined
      ? countMessage('The workspace is still being indexed: this answer uses the {0|# file|# files} indexed so far.', indexedFiles)
      : '',
    passages.length === 0 ? vscode.l10n.t('Nothing in the workspace index matched the question: it was asked without codebase context.') : '',
    left > 0 ? countMessage("{0|# more passage was|# more passages were} left out, to keep the question within the model's limits.", left) : '',
  ].filter(Boolean);
  return {
    intro: vscode.l10n.t(
      'Answer using these passages of my workspace. When you use one, cite it as it is named above its code (path:line), so it becomes a link.',
    ),
    // Each passage's lines as they are now, under the citation of the lines it starts and ends at.
    passages: passages.map((passage) => ({
      source: passage.location,
      quoted: `${citationText(passage.location)}\n${fencedCode(passage.text, passage.language)}`,
    })),
    outro: vscode.l10n.t('My question:'),
    notice: notices.join(' ') || undefined,
  };
}

/** Why the workspace cannot be searched, as the question's reply says it, with the button that fixes it. */
function unavailable(kind: Exclude<QuietSearch['kind'], 'hits'>): TurnError {
  const messages: Record<typeof kind, string> = {
    noFolder: vscode.l10n.t('Codebase context works on a folder: open one, then ask again.'),
    restricted: vscode.l10n.t(
      "Codebase context is off in Restricted Mode: it would send this workspace's files to the GigaChat service. Trust the workspace to use it.",
    ),
    noKey: vscode.l10n.t('No GigaChat authorization key is set. Set one to start chatting.'),
    noConsent: vscode.l10n.t(
      'Codebase context needs the workspace index, and indexing has not been allowed in this workspace yet, so nothing was sent. ' +
        'Index the workspace: you will see what would be sent to GigaChat and be asked first. Then the question is answered.',
    ),
    otherModel: vscode.l10n.t(
      'Codebase context needs the workspace index, which was built with another embeddings model than gigachat.embeddingsModel names now, so nothing was sent. ' +
        'Index the workspace again: you will see what it costs and be asked first. Then the question is answered.',
    ),
  };
  return { kind: 'codebase', message: messages[kind], actions: kind === 'noKey' ? ['setKey'] : ['allowIndexing'] };
}
