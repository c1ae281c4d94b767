import * as z from 'zod';
import { ErrorAction, FileLocation } from './messageShapes';
import { draft, fileId, id, LIMITS, MAX_ATTACHED_FILES, MAX_ATTACHMENTS, MAX_FILE_BYTES } from './protocolFields';

// What the chat view sends the host (see protocol.ts).

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
  /** Open Agent mode, from the empty chat's hint: VS Code's Chat in Agent mode on GigaChat, its input empty. */
  z.object({ type: z.literal('openAgentMode') }),
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
