/**
 * Every message that crosses the webview boundary, defined once and imported by both sides.
 * Each side parses what arrives with these schemas and drops (and logs) anything else, so a
 * compromised or buggy peer cannot make the other side act on a message of the wrong shape.
 * The authorization key and access tokens never appear in any of these messages.
 *
 * Both sides import it from here; it is defined in four parts:
 * - protocolFields.ts: what the view accepts, field by field (`LIMITS`), and the files a message takes;
 * - messageShapes.ts: the shapes several messages carry (a turn, an error, a picture, a chip);
 * - hostMessage.ts: what the host sends the view;
 * - viewMessage.ts: what the view sends the host.
 */

export { LIMITS, PICTURE_MARKER, MAX_ATTACHMENTS, MAX_ATTACHED_FILES, MAX_FILE_BYTES } from './protocolFields';
export {
  AttachedDocument,
  AttachmentChip,
  ConversationSummary,
  ErrorAction,
  ExplainedCode,
  FileLocation,
  ImageAttachment,
  PictureProblem,
  Turn,
  TurnError,
  TurnStatus,
  Usage,
  WebSource,
} from './messageShapes';
export { HostMessage } from './hostMessage';
export { CodeBlock, ViewMessage } from './viewMessage';
