/**
 * `#web` in a message asks for the service's web search, as the chat input's globe button does
 * (and in VS Code's Chat, `@gigachat /web`): the view shows its button pressed, the host offers
 * the model the search. Shared, so both read it alike; imports nothing.
 */
const WEB_TAG = /(^|\s)#web\b/i;

export function mentionsWeb(text: string): boolean {
  return WEB_TAG.test(text);
}
