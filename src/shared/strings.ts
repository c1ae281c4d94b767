import type { ErrorAction } from './protocol';

/**
 * Every user-visible string of the chat webview, in English. The host translates each value with
 * `vscode.l10n.t` (the English text is the key in `media/l10n/bundle.l10n.*.json`) and hands the
 * result to the webview as HTML-escaped JSON in `<body data-strings="…">`; the webview falls back
 * to these values for any key that is missing, so a stale host never leaves a blank label.
 *
 * `{0}`, `{1}`… are filled in by the webview after translation, so translators keep them as they are; a count
 * (`{0|# token|# tokens}`) has the forms of the translation's language (see `messageFormat.ts`).
 */
export const webviewStrings = {
  // Header
  newChat: 'New chat',
  history: 'Chat history',
  model: 'Model',

  // Composer
  send: 'Send',
  stop: 'Stop',
  inputLabel: 'Message to GigaChat',
  inputPlaceholder: 'Ask GigaChat (Enter to send, Shift+Enter for a new line)',
  inputPlaceholderNoKey: 'Set an authorization key to start chatting',
  inputPlaceholderAttached: 'Ask about the attached code (Enter to send)',
  inputPlaceholderAttachedFiles: 'Ask about the attachments (Enter to send)',
  attachedToMessage: 'Attached to the message',
  removeAttachment: 'Remove {0} from the message',
  attachFiles: 'Attach files',
  attachFilesDetails: 'Attach a picture or documents (you can also paste or drop them into the input)',
  attachedPicture: 'Attached picture: {0}',
  attachedCodeChip: 'Attached code: {0}',
  questionPicture: 'Picture attached to the question',
  attachedDocument: 'Attached document: {0}',
  questionDocuments: 'Documents attached to the question',
  editingQuestion: 'Editing your question: sending it replaces the question and the replies after it.',
  cancelEdit: 'Cancel editing (Escape)',
  codebaseToggle: 'Answer from the workspace',
  codebaseToggleDetails: 'Answer from the workspace: the passages closest to the question go with it (or type #codebase)',
  webToggle: 'Search the web',
  webToggleDetails: 'Search the web for the answer and read the pages the question names (or type #web). The pages found count as input tokens.',
  pictureUnseen: 'The selected model, {0}, cannot see pictures: this question would be refused with its picture.',
  usePictureModel: 'Switch to {0}',
  codebaseSources: 'Passages of the workspace sent with the question',
  openSource: 'Open {0}',
  removeSource: 'Answer again without {0}',

  // Transcript
  transcriptLabel: 'Chat transcript',
  questionPosition: 'Your question, {0|#} of {1|#}',
  answerPosition: "GigaChat's answer, {0|#} of {1|#}",
  explainCommand: 'Explain',
  explainedCode: 'Selected code',
  table: 'Table',
  formulaNotTypeset: "Shown as written: too large to typeset (this formula, or this answer's formulas together)",
  you: 'You',
  assistant: 'GigaChat',
  thinking: 'GigaChat is thinking…',
  waitingForStream: 'Waiting for GigaChat to finish the other answer…',
  reasoningLive: 'Reasoning…',
  reasoningDone: 'Reasoning',
  reasoningLabel: 'How the model reasoned before answering',
  webSources: 'Sources',
  rulesUsed: 'Rules',
  rulesUsedLabel: "The project's rule files this reply followed",
  answeredBy: 'Answered by {0}',
  jumpToLatest: 'Jump to latest',
  regenerate: 'Regenerate reply',
  copyReply: 'Copy reply',
  doInAgentMode: "Do it in Agent mode: VS Code's agent makes the changes, on GigaChat",
  editQuestion: 'Edit question',
  getAnswer: 'Get an answer',
  stopped: 'Stopped',
  replyIncomplete: 'The reply was interrupted: the text above is incomplete.',
  finishLength: 'The reply was cut off because it reached the maximum number of tokens.',
  finishBlacklist: 'The GigaChat content filter declined to answer this request. Try rephrasing it or asking about something else.',
  finishError: 'The service stopped this reply because of an error on its side: it may be incomplete. Regenerate it to try again.',
  contextShortened:
    'This chat has grown too long for the model: ' +
    "this reply, and the ones after it, do not see the chat's {0|earliest message|# earliest messages}. " +
    'Start a new chat to give GigaChat a clean slate.',
  tokens: '{0|# token|# tokens}',
  usageDetails: 'Prompt: {0|#} · Completion: {1|#} · Cached: {2|#} · Total: {3|#}',
  requestId: 'Request ID: {0}',
  errorDetails: 'Details',
  retryAvailableAt: 'Available at {0}, when GigaChat lets requests through again',
  context: 'Context: {0}',
  replyFinished: 'GigaChat finished replying.',
  replyCut:
    'This reply is too long to show here whole: {0|#} of its {1|# character|# characters} are shown. Copy reply, or Export Chat as Markdown, gives all of it.',
  questionCut: 'This message is too long to show here whole: {0|#} of its {1|# character|# characters} are shown. Export Chat as Markdown gives all of it.',
  earlierMessages: 'Show earlier messages ({0|#})',
  earlierLoading: 'Loading earlier messages…',
  earlierLoaded: 'Earlier messages shown: {0|#}.',

  // When part of the chat could not be shown
  partNotShown: 'Part of the chat could not be shown: the view received something it could not read. The chat was loaded again.',
  partStillNotShown: 'Part of the chat still cannot be shown. The GigaChat log may say why.',
  dismiss: 'Dismiss',

  // Code blocks
  code: 'Code',
  copied: 'Copied',
  copyCode: 'Copy code',
  copyLanguageCode: 'Copy {0} code',
  insertCode: 'Insert code at cursor',
  insertLanguageCode: 'Insert {0} code at cursor',
  openCode: 'Open code in new editor',
  openLanguageCode: 'Open {0} code in new editor',

  // Images
  generatedImage: 'Generated image',
  openImage: 'Open image',
  saveImage: 'Save image',
  imageLoading: 'Generating image…',
  imageLink: 'Image: {0}',
  morePictures: 'This reply has {0|# more picture|# more pictures} than the chat shows: at most {1|# is|# are} shown for a reply.',
  pictureTooLarge: 'This picture is too large to show here ({0}). Open it or save it to see it.',
  pictureUnsupported: 'This picture is of a type the chat cannot show. Open it or save it to see it.',
  pictureCannotLoad: 'This picture could not be shown here. Open it or save it to see it.',

  // Error actions, one label per `ErrorAction`
  actionSetKey: 'Set authorization key',
  actionOpenAccount: 'Open GigaChat Studio',
  actionRetry: 'Retry',
  actionTrustRootCertificate: 'Download and trust',
  actionChooseCertificateFile: 'Choose certificate file…',
  actionCertificateHelp: 'Learn more',
  actionOpenLogs: 'Show logs',
  actionOpenSettings: 'Open settings',
  actionProxySettings: 'Proxy settings',
  actionAddressSettings: 'Address settings',
  actionCertificateSettings: 'Certificate settings',
  actionScopeSettings: 'Scope setting',
  actionModelSettings: 'Model setting',
  actionCheckConnection: 'Check connection',
  actionUseVisionModel: 'Switch to a model that sees pictures',
  actionAllowIndexing: 'Index the workspace…',
  actionOpenFolder: 'Open folder…',
  actionManageTrust: 'Manage workspace trust',

  // Welcome (no key yet)
  welcomeTitle: 'Welcome to GigaChat',
  welcomeBody:
    'To talk to GigaChat, this extension needs an authorization key for the GigaChat API. ' +
    'Create a project in GigaChat Studio at developers.sber.ru, copy its authorization key and paste it here.',
  welcomeKeyStorage: 'The key is kept in VS Code secret storage and is only sent to Sber to obtain access tokens.',

  // Empty conversation
  emptyTitle: 'How can I help?',
  emptyBody: 'Ask a question, or select code in the editor and press {0} to ask about it. Right-click a selection to have it explained.',
  examplesLabel: 'Example prompts',
  example1: 'Explain how async and await work in JavaScript',
  example2: 'Write a Python function that removes duplicates from a list but keeps the order',
  example3: 'What is the difference between a process and a thread?',
  emptyAgentHint: "This chat answers and proposes code. To let GigaChat change files and run commands, use Agent mode in VS Code's Chat.",
  openAgentMode: 'Open Agent mode',

  // History
  historyTitle: 'Chat history',
  historyEmpty: 'No saved chats yet.',
  historyLoading: 'Loading…',
  historyFilter: 'Filter chats by title',
  historyNoMatch: 'No chat title contains “{0}”.',
  openConversation: 'Open chat: {0}',
  deleteConversation: 'Delete chat: {0}',
  untitled: 'Untitled chat',
  close: 'Close',
} as const;

export type WebviewStrings = { [K in keyof typeof webviewStrings]: string };

/** Each error button's label, shared by the chat view and the host's notifications so they never disagree. */
export const ACTION_LABELS: Record<ErrorAction, keyof WebviewStrings> = {
  setKey: 'actionSetKey',
  openAccount: 'actionOpenAccount',
  retry: 'actionRetry',
  trustRootCertificate: 'actionTrustRootCertificate',
  chooseCertificateFile: 'actionChooseCertificateFile',
  certificateHelp: 'actionCertificateHelp',
  openLogs: 'actionOpenLogs',
  openSettings: 'actionOpenSettings',
  proxySettings: 'actionProxySettings',
  addressSettings: 'actionAddressSettings',
  certificateSettings: 'actionCertificateSettings',
  scopeSettings: 'actionScopeSettings',
  modelSettings: 'actionModelSettings',
  checkConnection: 'actionCheckConnection',
  useVisionModel: 'actionUseVisionModel',
  allowIndexing: 'actionAllowIndexing',
  openFolder: 'actionOpenFolder',
  manageTrust: 'actionManageTrust',
};
