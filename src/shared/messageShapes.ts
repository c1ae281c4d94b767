import * as z from 'zod';
import { ATTACHMENT_LIMITS } from '../serviceFacts/attachmentLimits';
import { fileId, id, LIMITS, text } from './protocolFields';

// The shapes shared by several messages of the chat view: turns and what they carry (see protocol.ts).

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
  /** Every setting of the extension (src/host/settings/settingsQueries.ts); the others open only the settings that can fix the cause. */
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

/** A page a web answer cites, by the number its text links to (see core/service/webSources.ts). */
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

export const ConversationSummary = z.object({ id, title: z.string().max(LIMITS.title), updatedAt: z.number() });
export type ConversationSummary = z.infer<typeof ConversationSummary>;
