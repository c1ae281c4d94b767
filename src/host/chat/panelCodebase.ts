import type { CodebaseSource } from '../../core';
import { withoutCodebaseTag } from '../../shared/codebaseTag';

/**
 * Codebase context as the panel asks for it: `#codebase` in a question (the panel's way to ask,
 * shared with its view) is not part of what is searched for. The question keeps it.
 */
export function panelCodebase(source: CodebaseSource): CodebaseSource {
  return { find: (question, room, signal) => source.find(withoutCodebaseTag(question) || question, room, signal) };
}
