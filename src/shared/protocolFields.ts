import * as z from 'zod';
import { ATTACHMENT_LIMITS } from '../serviceFacts/attachmentLimits';
import { FILE_ID } from '../serviceFacts/fileFacts';

// The limits of the chat view's messages, and the fields every kind of message is built of (see protocol.ts).

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
/** At most this many pieces of code wait for the next message. */
export const MAX_ATTACHMENTS = 8;
/**
 * At most this many files (pictures and documents) go with one message: the service takes 10 a
 * request (serviceFacts/attachmentLimits.ts), one of them a picture.
 */
export const MAX_ATTACHED_FILES = ATTACHMENT_LIMITS.filesPerRequest;
/** The largest file the view reads and sends to the host: a larger one could never go with a request (under 20 MB in all). */
export const MAX_FILE_BYTES = ATTACHMENT_LIMITS.requestBytes;

/** The id of a turn, a conversation or a chip. */
export const id = z.string().min(1).max(LIMITS.id);
/** A picture's file id names a file in the extension's storage: nothing else (no `..`, no `/`) gets through. */
export const fileId = z.string().regex(FILE_ID);
/** The input's text: as long as a message may be, so a long draft is kept, not dropped as malformed. */
export const draft = z.string().max(LIMITS.draft);
/** A turn's text, or a streamed piece of it. */
export const text = z.string().max(LIMITS.text);
