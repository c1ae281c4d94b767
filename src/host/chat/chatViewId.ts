/** The chat view's id in package.json (a module of its own: activation needs it without the view's code). */
export const CHAT_VIEW_ID = 'gigachat.chatView';
