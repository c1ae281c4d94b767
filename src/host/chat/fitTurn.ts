import { FILE_ID } from '../../serviceFacts/fileFacts';
import {
  ErrorAction,
  ExplainedCode,
  FileLocation,
  WebSource,
  LIMITS,
  MAX_ATTACHED_FILES,
  PICTURE_MARKER,
  PictureProblem,
  TurnStatus,
  type AttachedDocument,
  type ImageAttachment,
  type Turn,
  type TurnError,
  type Usage,
} from '../../shared/protocol';
import { fitId, fitText, isCount, listOf, shownText } from './fitValues';

// A turn fitted to the chat view's limits, with its pictures, documents and error (see fitMessage.ts).

const STATUSES = new Set<string>(TurnStatus.options);
const ACTIONS = new Set<string>(ErrorAction.options);
const PROBLEMS = new Set<string>(PictureProblem.options);
const IMAGE_SOURCE = /^https?:\/\/[^\s"'<>\\]+$/;

/** At most `LIMITS.turnsPerMessage` turns, the newest: those left out count as earlier turns. */
export function fitTurns(turns: readonly Turn[], earlierTurns: number, notes: string[]): { turns: Turn[]; earlierTurns: number } {
  const all = listOf(turns);
  const kept = all.slice(-LIMITS.turnsPerMessage);
  if (kept.length < all.length)
    notes.push(`Chat view: ${all.length} turns in one message; the oldest ${all.length - kept.length} are left for the view to ask for`);
  return { turns: kept.map((turn) => fitTurn(turn, notes)), earlierTurns: (isCount(earlierTurns) ? earlierTurns : 0) + all.length - kept.length };
}

export function fitTurn(turn: Turn, notes: string[]): Turn {
  const whole = typeof turn.content === 'string' ? turn.content : '';
  let content = shownText(whole);
  const cutNow = content.length < whole.length;
  if (cutNow) notes.push(`Chat view: a turn of ${whole.length} characters is shown cut to its first ${content.length}`);
  const fullLength = cutNow ? whole.length : isCount(turn.fullLength) && turn.fullLength > content.length ? turn.fullLength : undefined;

  let images = listOf(turn.images);
  // Pictures whose markers were in the part cut off are not shown either.
  if (cutNow && turn.status !== 'streaming') images = images.slice(0, markersIn(content));
  const usable = images.map((image) => fitImage(image, notes));
  content = keepMarkers(content, (index) => index >= usable.length || usable[index] !== undefined);
  const pictures = usable.filter((image) => image !== undefined);
  const shown = pictures.slice(0, LIMITS.imagesPerTurn);
  const more = pictures.length - shown.length + (isCount(turn.moreImages) ? turn.moreImages : 0);
  if (shown.length < pictures.length) {
    notes.push(`Chat view: a reply with ${pictures.length} pictures shows the first ${shown.length}`);
    content = keepMarkers(content, (index) => index < LIMITS.imagesPerTurn || index >= pictures.length);
  }

  const fitted: Turn = {
    id: fitId(turn.id, 'turn id', notes),
    role: turn.role === 'user' ? 'user' : 'assistant',
    content,
    status: STATUSES.has(turn.status) ? turn.status : 'done',
  };
  if (typeof turn.finishReason === 'string') fitted.finishReason = fitText(turn.finishReason, LIMITS.finishReason, 'finish reason', notes);
  const usage = fitUsage(turn.usage);
  if (usage) fitted.usage = usage;
  if (turn.error !== undefined) fitted.error = fitError(turn.error, notes);
  if (shown.length > 0) fitted.images = shown;
  if (more > 0) fitted.moreImages = more;
  const documents = listOf(turn.documents)
    .slice(0, MAX_ATTACHED_FILES)
    .map((document) => fitDocument(document, notes));
  if (documents.length > 0) fitted.documents = documents;
  if (typeof turn.contextLabel === 'string') fitted.contextLabel = fitText(turn.contextLabel, LIMITS.contextLabel, 'context label', notes);
  if (typeof turn.notice === 'string') fitted.notice = fitText(turn.notice, LIMITS.notice, 'notice', notes);
  // Without it the question shows its whole prompt, as before Explain had a view of its own.
  if (turn.explained !== undefined && ExplainedCode.safeParse(turn.explained).success) fitted.explained = turn.explained;
  if (isCount(turn.omittedMessages) && turn.omittedMessages > 0) fitted.omittedMessages = turn.omittedMessages;
  const sources = listOf(turn.sources).filter((source) => FileLocation.safeParse(source).success);
  if (sources.length > 0) fitted.sources = sources.slice(0, LIMITS.sources);
  if (fullLength !== undefined) fitted.fullLength = fullLength;
  if (typeof turn.model === 'string') fitted.model = fitText(turn.model, LIMITS.modelName, 'model', notes);
  if (typeof turn.reasoning === 'string' && turn.reasoning) fitted.reasoning = shownText(turn.reasoning);
  const webSources = listOf(turn.webSources).filter((source) => WebSource.safeParse(source).success);
  if (webSources.length > 0) fitted.webSources = webSources.slice(0, LIMITS.webSources);
  const rules = listOf(turn.rules).filter((rule) => typeof rule === 'string' && rule.length > 0 && rule.length <= LIMITS.filePath);
  if (rules.length > 0) fitted.rules = rules.slice(0, LIMITS.rules);
  return fitted;
}

/** A picture the view can take; one it could not even name is left out (undefined). */
export function fitImage(image: ImageAttachment, notes: string[]): ImageAttachment | undefined {
  if (typeof image?.fileId !== 'string' || !FILE_ID.test(image.fileId)) {
    notes.push('Chat view: a picture without a usable file id is left out');
    return undefined;
  }
  if ('src' in image && typeof image.src === 'string' && image.src.length <= LIMITS.imageSource && IMAGE_SOURCE.test(image.src))
    return { fileId: image.fileId, src: image.src };
  if ('unavailable' in image && PROBLEMS.has(image.unavailable)) {
    return { fileId: image.fileId, unavailable: image.unavailable, ...(isCount(image.bytes) ? { bytes: image.bytes } : {}) };
  }
  notes.push(`Chat view: picture ${image.fileId} has no address the view can load; it is offered to open instead`);
  return { fileId: image.fileId, unavailable: 'cannotLoad' };
}

/** A document's name, type and size as the view takes them; an extension it would refuse is left empty. */
export function fitDocument(document: AttachedDocument, notes: string[]): AttachedDocument {
  const extension = typeof document?.extension === 'string' && /^[a-z0-9]{0,10}$/.test(document.extension) ? document.extension : '';
  const name = fitText(String(document?.name ?? ''), LIMITS.chipLabel, 'document name', notes);
  return { name, extension, bytes: isCount(document?.bytes) ? document.bytes : 0 };
}

function fitUsage(usage: Usage | undefined): Usage | undefined {
  if (!usage || ![usage.promptTokens, usage.completionTokens, usage.totalTokens].every(isCount)) return undefined;
  const { promptTokens, completionTokens, totalTokens, precachedTokens } = usage;
  return { promptTokens, completionTokens, totalTokens, ...(isCount(precachedTokens) ? { precachedTokens } : {}) };
}

function fitError(error: TurnError, notes: string[]): TurnError {
  const fitted: TurnError = {
    kind: fitText(String(error?.kind ?? 'protocol'), LIMITS.errorKind, 'error kind', notes),
    message: fitText(typeof error?.message === 'string' ? error.message : '', LIMITS.errorMessage, 'error message', notes),
    actions: [...new Set(listOf(error?.actions).filter((action) => ACTIONS.has(action)))].slice(0, LIMITS.errorActions),
  };
  // A request id cut short would send whoever reads it after the wrong request: it stays in the log only.
  if (typeof error?.requestId === 'string') {
    if (error.requestId.length <= LIMITS.requestId) fitted.requestId = error.requestId;
    else notes.push(`Chat view: a request id of ${error.requestId.length} characters is not shown (the log has the error)`);
  }
  if (isCount(error?.retryAt) && error.retryAt > 0) fitted.retryAt = error.retryAt;
  return fitted;
}

/** Removes the markers whose index `keep` refuses (their pictures are not sent). */
function keepMarkers(content: string, keep: (index: number) => boolean): string {
  let index = 0;
  return content.includes(PICTURE_MARKER) ? content.replaceAll(PICTURE_MARKER, () => (keep(index++) ? PICTURE_MARKER : '')) : content;
}

function markersIn(content: string): number {
  return content.split(PICTURE_MARKER).length - 1;
}
