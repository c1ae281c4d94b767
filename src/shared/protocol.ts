import * as z from 'zod';
import { ATTACHMENT_LIMITS } from '../serviceFacts/attachmentLimits';
import { FILE_ID } from '../serviceFacts/fileFacts';

/**
 * Every message that crosses the webview boundary, defined once and imported by both sides.
 * Each side parses what arrives with these schemas and drops (and logs) anything else, so a
 * compromised or buggy peer cannot make the other side act on a message of the wrong shape.
 * The authorization key and access tokens never appear in any of these messages.
 */

/**
 * What the view accepts, field by field. The host fits every message to these before posting it
 * (src/host/chat/fitMessage.ts), so nothing it sends can fail the view's check; the view still
 * checks, and asks for the chat again when something does.
 */
export const LIMITS = {
  id: 200,
  /** A turn's text, and the most of a reply the view shows (a longer one is shown cut, with a notice). */
  text: 2_000_000,
  /** A message the user sends, and the input's draft. */
  draft: 200_000,
  turnsPerMessage: 2_000,
  imagesPerTurn: 16,
  imageSource: 2_000,
  modelName: 100,
  models: 100,
  errorKind: 40,
  errorMessage: 4_000,
  errorActions: 6,
  requestId: 200,
  finishReason: 40,
  contextLabel: 300,
  notice: 500,
  title: 300,
  chipLabel: 300,
  chipTitle: 1_000,
  conversations: 1_000,
  earlierQuestions: 50,
  /** The passages of the workspace a question with codebase context was sent with. */
  sources: 50,
  /** The pages a web answer cites. */
  webSources: 50,
  webAddress: 2_000,
  /** The project's rule files a reply was asked with. */
  rules: 50,
  /** A file's extension, as a document's chip names its type. */
  extension: 10,
  filePath: 1_000,
  /** The code an Explain question is about (the selection is cut to 12,000 characters before it is sent). */
  explainedCode: 20_000,
  /** A VS Code language id (`typescript`). */
  languageId: 100,
} as const;

/**
 * U+FFFC OBJECT REPLACEMENT CHARACTER: where the i-th picture of a reply goes in its text. The host
 * puts one where the model's media tag stood, and the view draws `images[i]` there.
 */
export const PICTURE_MARKER = '\uFFFC';

const id = z.string().min(1).max(LIMITS.id);
/** A picture's file id names a file in the extension's storage: nothing else (no `..`, no `/`) gets through. */
const fileId = z.string().regex(FILE_ID);
/** The input's text: as long as a message may be, so a long draft is kept, not dropped as malformed. */
const draft = z.string().max(LIMITS.draft);
const text = z.string().max(LIMITS.text);

// ── Shapes shared by several messages ────────────

export const Usage = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  precachedTokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof Usage>;

/**
 * A button offered with an error; the host knows how to carry out each one. `certificateHelp`
 * ("Learn more") opens the certificate section of the README.
 */
export const ErrorAction = z.enum([
  'setKey',
  'openAccount',
  'retry',
  'trustRootCertificate',
  'chooseCertificateFile',
  'certificateHelp',
  'openLogs',
  /** Every setting of the extension (src/host/settingsQueries.ts); the others open only the settings that can fix the cause. */
  'openSettings',
  'proxySettings',
  'addressSettings',
  'certificateSettings',
  'scopeSettings',
  'modelSettings',
  /** Runs GigaChat: Check Connection, whose report says which step fails and why. */
  'checkConnection',
  /** Selects a model that sees pictures (the model refused a question's pictures), then asks again. */
  'useVisionModel',
  /** Asks to index the workspace (what the search command asks before indexing), then asks again with codebase context. */
  'allowIndexing',
  /** VS Code's Open Folder (searching the workspace needs one). */
  'openFolder',
  /** VS Code's workspace trust (Restricted Mode keeps the workspace's files from being sent). */
  'manageTrust',
]);
export type ErrorAction = z.infer<typeof ErrorAction>;

export const TurnError = z.object({
  /** The core's `ServiceErrorKind`, for styling; the message is already localized. */
  kind: z.string().max(LIMITS.errorKind),
  message: z.string().max(LIMITS.errorMessage),
  actions: z.array(ErrorAction).max(LIMITS.errorActions),
  requestId: z.string().max(LIMITS.requestId).optional(),
  /** When the service lets the next request through (epoch ms; its Retry-After): Retry waits until then. */
  retryAt: z.number().int().positive().optional(),
});
export type TurnError = z.infer<typeof TurnError>;

export const TurnStatus = z.enum(['streaming', 'done', 'stopped', 'error']);
export type TurnStatus = z.infer<typeof TurnStatus>;

/** Why the view cannot draw a picture: larger than the service's 15 MB, a type browsers do not show (TIFF, BMP…), or an address it cannot load. */
export const PictureProblem = z.enum(['tooLarge', 'unsupportedType', 'cannotLoad']);
export type PictureProblem = z.infer<typeof PictureProblem>;

/**
 * A picture the model generated, already downloaded by the host into the extension's storage. The
 * view loads the file itself, by its webview resource address (the CSP allows no other image
 * source), so a message never carries the picture's bytes. A picture the view cannot draw comes
 * without an address and says why (`bytes`: its size); the view offers to open or save it instead.
 */
export const ImageAttachment = z.union([
  z.object({
    fileId,
    src: z
      .string()
      .max(LIMITS.imageSource)
      .regex(/^https?:\/\/[^\s"'<>\\]+$/),
  }),
  z.object({ fileId, unavailable: PictureProblem, bytes: z.number().int().nonnegative().optional() }),
]);
export type ImageAttachment = z.infer<typeof ImageAttachment>;

/** Lines of a file of the workspace, as a citation names them (src/shared/fileLinks.ts). 1-based, inclusive. */
export const FileLocation = z.object({
  file: z.string().min(1).max(LIMITS.filePath),
  first: z.number().int().positive(),
  last: z.number().int().positive(),
});

/**
 * The code an Explain Selection question is about: the view shows the question as "Explain" and a
 * chip of the file and lines that opens them, with the code folded below, instead of the prompt the
 * model gets (the turn's `content`).
 */
export const ExplainedCode = FileLocation.extend({
  language: z.string().max(LIMITS.languageId),
  code: z.string().max(LIMITS.explainedCode),
});
export type ExplainedCode = z.infer<typeof ExplainedCode>;

/** A page a web answer cites, by the number its text links to (see core/webSources.ts). */
export const WebSource = z.object({
  number: z.number().int().positive(),
  url: z
    .string()
    .max(LIMITS.webAddress)
    .regex(/^https?:\/\/[^\s"'<>\\]+$/),
  title: z.string().max(LIMITS.title),
  host: z.string().max(LIMITS.title),
});
export type WebSource = z.infer<typeof WebSource>;
/** A document attached to a message (TXT, PDF, DOCX…), as its chip shows it: the type from its extension, and its size. */
export const AttachedDocument = z.object({
  name: z.string().max(LIMITS.chipLabel),
  /** Lower-case, without the dot: `pdf`, `docx`. */
  extension: z
    .string()
    .regex(/^[a-z0-9]*$/)
    .max(LIMITS.extension),
  bytes: z.number().int().nonnegative(),
});
export type AttachedDocument = z.infer<typeof AttachedDocument>;

export const Turn = z.object({
  id,
  role: z.enum(['user', 'assistant']),
  /** Markdown (assistant) or plain text (user). Media tags are already replaced by `images`. */
  content: text,
  status: TurnStatus,
  finishReason: z.string().max(LIMITS.finishReason).optional(),
  usage: Usage.optional(),
  error: TurnError.optional(),
  /** A reply's pictures, one per marker; a question's are the pictures attached to it (no markers), shown as thumbnails. */
  images: z.array(ImageAttachment).max(LIMITS.imagesPerTurn).optional(),
  /** The documents attached to a question (shown as chips: name, type, size; their bytes stay with the host). */
  documents: z.array(AttachedDocument).max(ATTACHMENT_LIMITS.filesPerRequest).optional(),
  /** A reply with more pictures than a turn may show: how many more it has. */
  moreImages: z.number().int().positive().optional(),
  /** Shown above a user turn that carries editor context (explain selection), e.g. "app.ts:10–24". */
  contextLabel: z.string().max(LIMITS.contextLabel).optional(),
  /** A visible notice, e.g. that a long selection was trimmed. */
  notice: z.string().max(LIMITS.notice).optional(),
  /** An Explain Selection question: what it is about, shown in place of its prompt. */
  explained: ExplainedCode.optional(),
  /** A question asked with codebase context: the passages of the workspace it was sent with, best first (links that open them). */
  sources: z.array(FileLocation).max(LIMITS.sources).optional(),
  /** A reply that did not see this many of the conversation's first messages: with them it was too large for the model. */
  omittedMessages: z.number().int().positive().optional(),
  /** The text is longer than the view shows: `content` is its beginning, and this its whole length. */
  fullLength: z.number().int().positive().optional(),
  /** The model that wrote a reply, as the service named it (version included). */
  model: z.string().max(LIMITS.modelName).optional(),
  /** What a reasoning model thought before it answered, shown apart from the answer. */
  reasoning: text.optional(),
  /** The pages a web answer cites. */
  webSources: z.array(WebSource).max(LIMITS.webSources).optional(),
  /** The project's rule files a reply was asked with (AGENTS.md and the like): chips that open them. */
  rules: z.array(z.string().max(LIMITS.filePath)).max(LIMITS.rules).optional(),
});
export type Turn = z.infer<typeof Turn>;

/**
 * Code (Add Selection to GigaChat), a picture (pasted, dropped, picked) or a document the user attached
 * to the next message, as its chip shows it. A picture's chip has its thumbnail: the host keeps the
 * file, the view loads it by its resource address as it does the model's pictures. A document's
 * chip has its type and size.
 */
export const AttachmentChip = z.object({
  id,
  /** `retry.ts:2–4`, or a picture's or document's file name. */
  label: z.string().max(LIMITS.chipLabel),
  /** The file's path in the workspace and the lines (a picture, a document: its name and size): the chip's tooltip. */
  title: z.string().max(LIMITS.chipTitle),
  picture: ImageAttachment.optional(),
  document: AttachedDocument.omit({ name: true }).optional(),
});
export type AttachmentChip = z.infer<typeof AttachmentChip>;
/** At most this many pieces of code wait for the next message. */
export const MAX_ATTACHMENTS = 8;
/**
 * At most this many files (pictures and documents) go with one message: the service takes 10 a
 * request (serviceFacts/attachmentLimits.ts), one of them a picture.
 */
export const MAX_ATTACHED_FILES = ATTACHMENT_LIMITS.filesPerRequest;
/** The largest file the view reads and sends to the host: a larger one could never go with a request (under 20 MB in all). */
export const MAX_FILE_BYTES = ATTACHMENT_LIMITS.requestBytes;
const attachments = z.array(AttachmentChip).max(MAX_ATTACHMENTS + MAX_ATTACHED_FILES);

export const ConversationSummary = z.object({ id, title: z.string().max(LIMITS.title), updatedAt: z.number() });
export type ConversationSummary = z.infer<typeof ConversationSummary>;

const turns = z.array(Turn).max(LIMITS.turnsPerMessage);
/** How many turns of the conversation come before those of the message: the view asks for them as it scrolls up. */
const earlierTurns = z.number().int().nonnegative();
/** The questions of the turns before those of the message, oldest first (the newest of them only): ↑ in the input brings them back. */
const earlierQuestions = z.array(draft).max(LIMITS.earlierQuestions);
const models = z.array(z.string().max(LIMITS.modelName)).max(LIMITS.models);
const model = z.string().max(LIMITS.modelName);

// ── Host → webview ───────────────────────────────

export const HostMessage = z.discriminatedUnion('type', [
  /**
   * The whole view, sent on `ready` and after switching conversations: the conversation's newest
   * turns (as many as fit a page), and how many come before them.
   */
  z.object({
    type: z.literal('state'),
    hasKey: z.boolean(),
    conversationId: id,
    turns,
    earlierTurns,
    earlierQuestions,
    busy: z.boolean(),
    models,
    model,
    draft,
    /** When the view wrote `draft` (its own clock): a view holding a newer one of its own keeps that. */
    draftAt: z.number().nonnegative().optional(),
    attachments,
  }),
  /** The page of turns that comes right before the turn `before` (the view asked for it: `loadEarlier`). */
  z.object({ type: z.literal('earlierPage'), conversationId: id, before: id, turns, earlierTurns, earlierQuestions }),
  /**
   * A new turn appended to the open conversation (the user's message or a reply starting). The
   * conversation is named, so a view showing another one never puts the turn under it.
   */
  z.object({ type: z.literal('turnAdded'), conversationId: id, turn: Turn }),
  /** More text of a reply being streamed: appended to the turn's content. */
  z.object({ type: z.literal('delta'), turnId: id, text }),
  /**
   * The reply waits for the account's stream (another request holds it): the view says so instead
   * of "thinking" until the stream is free (`waiting` false) or the first text arrives.
   */
  z.object({ type: z.literal('replyWaiting'), turnId: id, waiting: z.boolean() }),
  /** More of a reasoning model's thinking: appended to the turn's reasoning. */
  z.object({ type: z.literal('reasoningDelta'), turnId: id, text }),
  /** A turn's final state (content included, so the view can correct anything it missed). */
  z.object({ type: z.literal('turnUpdated'), turn: Turn }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  z.object({ type: z.literal('history'), conversations: z.array(ConversationSummary).max(LIMITS.conversations) }),
  z.object({ type: z.literal('models'), models, model }),
  z.object({ type: z.literal('keyState'), hasKey: z.boolean() }),
  /** The code attached to the next message changed (added from the editor, removed, sent). */
  z.object({ type: z.literal('attachments'), attachments }),
  /**
   * Files the user tried to attach were not: what limit each broke and what to do, one message
   * each (already localized). The view shows them by the input until the next attempt or message.
   */
  z.object({ type: z.literal('attachmentsRefused'), messages: z.array(z.string().max(LIMITS.errorMessage)).min(1).max(MAX_ATTACHED_FILES) }),
  /** Puts focus in the input (after a command opened the view). */
  z.object({ type: z.literal('focusInput') }),
  /** Show Chat History, from the view's title bar or the command palette. */
  z.object({ type: z.literal('openHistory') }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

// ── Webview → host ───────────────────────────────

export const CodeBlock = z.object({ code: z.string().max(2_000_000), language: z.string().max(50).optional() });

export const ViewMessage = z.discriminatedUnion('type', [
  /** The webview has loaded its script and wants the state. */
  z.object({ type: z.literal('ready') }),
  /**
   * Focus went into the view or left it: VS Code tracks no focus inside a webview view, so the host
   * keeps a context key of its own for the keys bound to the chat (Alt+F2, Show Last Answer).
   */
  z.object({ type: z.literal('focused'), focused: z.boolean() }),
  /**
   * A message from the host failed the view's check, so the view may lack part of the chat: it asks
   * for the state again. `failed`: that message's type; `issues`: what was wrong (paths and rules, no values).
   */
  z.object({ type: z.literal('resync'), failed: z.string().max(40), issues: z.string().max(400) }),
  /** The user scrolled up to the oldest turn shown (`before`): the page of turns before it, please. */
  z.object({ type: z.literal('loadEarlier'), conversationId: id, before: id }),
  /**
   * `attachmentIds`: the chips shown with the message; their code goes with it. `replaces`: the
   * question the message is an edit of, which it replaces with the turns after it.
   */
  z.object({
    type: z.literal('send'),
    text: z.string().min(1).max(LIMITS.draft),
    attachmentIds: z
      .array(id)
      .max(MAX_ATTACHMENTS + MAX_ATTACHED_FILES)
      .optional(),
    replaces: id.optional(),
    /** Answer from the workspace's code: the passages closest to the question go with it (the input's toggle, or `#codebase`). */
    codebase: z.boolean().optional(),
    /** Let the model search the web (and read pages the question names): the input's globe toggle, or `#web`. */
    web: z.boolean().optional(),
  }),
  /** A chip's remove button: that code or picture is not sent. */
  z.object({ type: z.literal('removeAttachment'), id }),
  /**
   * A file (a picture or a document) pasted or dropped into the input. The host checks it (type,
   * size, how many) and says why one is refused; the view leaves `bytes` out of a file too large to
   * be taken, so the host can say so without receiving it. `mediaType`: as the browser names it, only for the message.
   */
  z.object({
    type: z.literal('attachFile'),
    name: z.string().max(LIMITS.chipLabel),
    mediaType: z.string().max(100),
    size: z.number().int().nonnegative(),
    bytes: z
      .instanceof(Uint8Array)
      .refine((bytes) => bytes.byteLength < MAX_FILE_BYTES)
      .optional(),
  }),
  /** The input's attach button: the host lets the user pick pictures and documents. */
  z.object({ type: z.literal('pickFiles') }),
  z.object({ type: z.literal('stop') }),
  /** Ask again for the last reply (after an error, a stop, or to get another answer); `turnId`: the reply the button was on. */
  z.object({ type: z.literal('regenerate'), turnId: id.optional() }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('showHistory') }),
  z.object({ type: z.literal('openConversation'), conversationId: id }),
  z.object({ type: z.literal('deleteConversation'), conversationId: id }),
  z.object({ type: z.literal('selectModel'), model: z.string().min(1).max(LIMITS.modelName) }),
  /** A button of an error (`turnId`: the reply it belongs to; none on the welcome screen). */
  z.object({ type: z.literal('errorAction'), action: ErrorAction, turnId: id.optional() }),
  /** Copy a reply's text: the host has it as written (markdown), without the model's media tags. */
  z.object({ type: z.literal('copyReply'), turnId: id }),
  /** Do it in Agent mode, under a reply that proposes code. */
  z.object({ type: z.literal('doInAgentMode'), turnId: id }),
  z.object({ type: z.literal('copyCode'), ...CodeBlock.shape }),
  z.object({ type: z.literal('insertCode'), ...CodeBlock.shape }),
  z.object({ type: z.literal('openCode'), ...CodeBlock.shape }),
  /** A link in a reply was clicked: the host checks the scheme and asks before opening. */
  z.object({ type: z.literal('openLink'), href: z.string().max(4_000) }),
  /** The × on a passage of the last question's codebase context: it is asked again without that passage. */
  z.object({ type: z.literal('removeSource'), turnId: id, ...FileLocation.shape }),
  /** A citation of a workspace file in a reply, or a question's source, was clicked: the host opens the file at those lines. */
  z.object({ type: z.literal('openFile'), ...FileLocation.shape }),
  z.object({ type: z.literal('openImage'), fileId }),
  z.object({ type: z.literal('saveImage'), fileId }),
  /** The input's text, so a draft survives the view being hidden or reloaded; `at`: when it was typed. */
  z.object({ type: z.literal('draft'), text: draft, at: z.number().nonnegative().optional() }),
]);
export type ViewMessage = z.infer<typeof ViewMessage>;
