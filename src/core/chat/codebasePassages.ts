import type { FoundPassages, QuotedSource, SourceLines, StoredTurn } from './storedTurns';

/**
 * A question's codebase context as it is kept with the question: the text that goes before it,
 * the files and lines it cites, and taking one passage out. Apart from finding the context
 * (codebaseTurn.ts), which needs the whole conversation as it is sent (sentConversation.ts), itself
 * needing this text: one module for both would import itself in a circle.
 */

/** What goes before a question with codebase context: '' when no passage does. */
export function codebaseText(found: FoundPassages | undefined): string {
  const passages = passagesOf(found);
  if (passages.length === 0) return '';
  return [found?.intro, ...passages.map((passage) => passage.quoted), found?.outro].join('\n\n');
}

/** The files and lines of the passages a question goes with, best first. */
export function codebaseSources(question: StoredTurn): SourceLines[] {
  return passagesOf(question.codebase?.found).map((passage) => passage.source);
}

/** The passages as kept: none from a conversation file that an older version or a hand left without them. */
function passagesOf(found: FoundPassages | undefined): QuotedSource[] {
  return Array.isArray(found?.passages) ? found.passages : [];
}

/** Takes the passage from `source` out of the question's codebase context; false when the question has none such. */
export function removePassage(question: StoredTurn, source: SourceLines): boolean {
  const found = question.codebase?.found;
  const index = found?.passages.findIndex((passage) => sameLocation(passage.source, source)) ?? -1;
  if (!found || index < 0) return false;
  found.passages.splice(index, 1);
  return true;
}

function sameLocation(a: SourceLines, b: SourceLines): boolean {
  return a.file === b.file && a.first === b.first && a.last === b.last;
}
