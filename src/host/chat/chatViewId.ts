/** The chat view's id in package.json (a module of its own: activation needs it without the view's code). */
export const CHAT_VIEW_ID = 'gigachat.chatView';

/** True while focus is in the chat view (the view says so): the `when` of the keys bound to it in package.json. */
export const CHAT_FOCUSED_CONTEXT = 'gigachat.chatFocused';
