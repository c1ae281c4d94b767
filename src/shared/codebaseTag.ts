/**
 * `#codebase` in a message asks for codebase context, as the chat input's button does (and in
 * VS Code's Chat, `/codebase`): the view shows its button pressed, the host searches for the rest
 * of the text. Shared, so both read it alike; imports nothing.
 */
const CODEBASE_TAG = /(^|\s)#codebase\b/gi;

export function mentionsCodebase(text: string): boolean {
  return new RegExp(CODEBASE_TAG.source, 'i').test(text);
}

/** The question as searched for: without `#codebase`. */
export function withoutCodebaseTag(text: string): string {
  return text.replace(CODEBASE_TAG, '$1').trim();
}
