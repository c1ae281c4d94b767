import * as z from 'zod';
import { FILE_ID } from '../core/images';

/**
 * Every message that crosses the webview boundary, defined once and imported by both sides.
 * Each side parses what arrives with these schemas and drops (and logs) anything else, so a
 * compromised or buggy peer cannot make the other side act on a message of the wrong shape.
 * The authorization key and access tokens never appear in any of these messages.
 */

const id = z.string().min(1).max(200);
/** A picture's file id names a file in the extension's storage: nothing else (no `..`, no `/`) gets through. */
const fileId = z.string().regex(FILE_ID);
/** The input's text: as long as a message may be, so a long draft is kept, not dropped as malformed. */
const draft = z.string().max(200_000);
const text = z.string().max(2_000_000);

// ── Shapes shared by several messages ─────────────────────────────────────────

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
export const ErrorAction = z.enum(['setKey', 'openAccount', 'retry', 'trustRootCertificate', 'chooseCertificateFile', 'certificateHelp', 'openLogs', 'openSettings', 'proxySettings']);
export type ErrorAction = z.infer<typeof ErrorAction>;

export const TurnError = z.object({
  /** The core's `ServiceErrorKind`, for styling; the message is already localized. */
  kind: z.string().max(40),
  message: z.string().max(4_000),
  actions: z.array(ErrorAction).max(6),
  requestId: z.string().max(200).optional(),
});
export type TurnError = z.infer<typeof TurnError>;

export const TurnStatus = z.enum(['streaming', 'done', 'stopped', 'error']);
export type TurnStatus = z.infer<typeof TurnStatus>;

/** A picture the model generated, already downloaded by the host and handed over as a data URI. */
export const ImageAttachment = z.object({
  fileId,
  /** `data:image/...;base64,...`, the only image source the webview's CSP allows besides its own files. */
  dataUri: z.string().regex(/^data:image\/(jpeg|png|gif|webp);base64,[A-Za-z0-9+/=]+$/).max(20_000_000),
});
export type ImageAttachment = z.infer<typeof ImageAttachment>;

export const Turn = z.object({
  id,
  role: z.enum(['user', 'assistant']),
  /** Markdown (assistant) or plain text (user). Media tags are already replaced by `images`. */
  content: text,
  status: TurnStatus,
  finishReason: z.string().max(40).optional(),
  usage: Usage.optional(),
  error: TurnError.optional(),
  images: z.array(ImageAttachment).max(16).optional(),
  /** Shown above a user turn that carries editor context (explain selection), e.g. "app.ts:10–24". */
  contextLabel: z.string().max(300).optional(),
  /** A visible notice, e.g. that a long selection was trimmed. */
  notice: z.string().max(500).optional(),
  /** A reply that did not see this many of the conversation's first messages: with them it was too large for the model. */
  omittedMessages: z.number().int().positive().optional(),
});
export type Turn = z.infer<typeof Turn>;

/** Code the user attached to the next message (Add Selection to Chat), as its chip shows it. */
export const AttachmentChip = z.object({
  id,
  /** `retry.ts:2–4` */
  label: z.string().max(300),
  /** The file's path in the workspace and the lines: the chip's tooltip. */
  title: z.string().max(1_000),
});
export type AttachmentChip = z.infer<typeof AttachmentChip>;
/** At most this many pieces of code wait for the next message. */
export const MAX_ATTACHMENTS = 8;
const attachments = z.array(AttachmentChip).max(MAX_ATTACHMENTS);

export const ConversationSummary = z.object({ id, title: z.string().max(300), updatedAt: z.number() });
export type ConversationSummary = z.infer<typeof ConversationSummary>;

// ── Host → webview ────────────────────────────────────────────────────────────

export const HostMessage = z.discriminatedUnion('type', [
  /** The whole view, sent on `ready` and after switching conversations. */
  z.object({
    type: z.literal('state'),
    hasKey: z.boolean(),
    conversationId: id,
    turns: z.array(Turn).max(2_000),
    busy: z.boolean(),
    models: z.array(z.string().max(100)).max(100),
    model: z.string().max(100),
    draft,
    /** When the view wrote `draft` (its own clock): a view holding a newer one of its own keeps that. */
    draftAt: z.number().nonnegative().optional(),
    attachments,
  }),
  /** A new turn appended to the open conversation (the user's message or a reply starting). */
  z.object({ type: z.literal('turnAdded'), turn: Turn }),
  /** More text of a reply being streamed: appended to the turn's content. */
  z.object({ type: z.literal('delta'), turnId: id, text }),
  /** A turn's final state (content included, so the view can correct anything it missed). */
  z.object({ type: z.literal('turnUpdated'), turn: Turn }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  z.object({ type: z.literal('history'), conversations: z.array(ConversationSummary).max(1_000) }),
  z.object({ type: z.literal('models'), models: z.array(z.string().max(100)).max(100), model: z.string().max(100) }),
  z.object({ type: z.literal('keyState'), hasKey: z.boolean() }),
  /** The code attached to the next message changed (added from the editor, removed, sent). */
  z.object({ type: z.literal('attachments'), attachments }),
  /** Puts focus in the input (after a command opened the view). */
  z.object({ type: z.literal('focusInput') }),
]);
export type HostMessage = z.infer<typeof HostMessage>;

// ── Webview → host ────────────────────────────────────────────────────────────

export const CodeBlock = z.object({ code: z.string().max(2_000_000), language: z.string().max(50).optional() });

export const ViewMessage = z.discriminatedUnion('type', [
  /** The webview has loaded its script and wants the state. */
  z.object({ type: z.literal('ready') }),
  /**
   * `attachmentIds`: the chips shown with the message; their code goes with it. `replaces`: the
   * question the message is an edit of, which it replaces with the turns after it.
   */
  z.object({
    type: z.literal('send'),
    text: z.string().min(1).max(200_000),
    attachmentIds: z.array(id).max(MAX_ATTACHMENTS).optional(),
    replaces: id.optional(),
  }),
  /** A chip's remove button: that code is not sent. */
  z.object({ type: z.literal('removeAttachment'), id }),
  z.object({ type: z.literal('stop') }),
  /** Ask again for the last reply (after an error, a stop, or to get another answer); `turnId`: the reply the button was on. */
  z.object({ type: z.literal('regenerate'), turnId: id.optional() }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('showHistory') }),
  z.object({ type: z.literal('openConversation'), conversationId: id }),
  z.object({ type: z.literal('deleteConversation'), conversationId: id }),
  z.object({ type: z.literal('selectModel'), model: z.string().min(1).max(100) }),
  /** A button of an error (`turnId`: the reply it belongs to; none on the welcome screen). */
  z.object({ type: z.literal('errorAction'), action: ErrorAction, turnId: id.optional() }),
  /** Copy a reply's text: the host has it as written (markdown), without the model's media tags. */
  z.object({ type: z.literal('copyReply'), turnId: id }),
  z.object({ type: z.literal('copyCode'), ...CodeBlock.shape }),
  z.object({ type: z.literal('insertCode'), ...CodeBlock.shape }),
  z.object({ type: z.literal('openCode'), ...CodeBlock.shape }),
  /** A link in a reply was clicked: the host checks the scheme and asks before opening. */
  z.object({ type: z.literal('openLink'), href: z.string().max(4_000) }),
  z.object({ type: z.literal('openImage'), fileId }),
  z.object({ type: z.literal('saveImage'), fileId }),
  /** The input's text, so a draft survives the view being hidden or reloaded; `at`: when it was typed. */
  z.object({ type: z.literal('draft'), text: draft, at: z.number().nonnegative().optional() }),
]);
export type ViewMessage = z.infer<typeof ViewMessage>;
