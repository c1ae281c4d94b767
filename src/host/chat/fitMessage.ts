import { FILE_ID } from '../../serviceFacts/fileFacts';
import {
  ErrorAction,
  ExplainedCode,
  FileLocation,
  WebSource,
  LIMITS,
  MAX_ATTACHMENTS,
  MAX_ATTACHED_FILES,
  PICTURE_MARKER,
  PictureProblem,
  TurnStatus,
  type AttachedDocument,
  type AttachmentChip,
  type ConversationSummary,
  type HostMessage,
  type ImageAttachment,
  type Turn,
  type TurnError,
  type Usage,
} from '../../shared/protocol';

/**
 * Every message the host posts to the chat view, fitted to the limits the view checks it against
 * (`LIMITS` in the protocol), so that nothing the host sends can be refused: text is cut (a reply
 * says so and how to see all of it), lists keep their newest or first entries, a request id or a
 * model name too long to be true is left out. Each change comes back as a line for the log.
 *
 * Values come from the conversation files on disk too, which an older version, a full disk or a
 * hand may have damaged: every field is checked for its kind as well as its size. Pure, with no
 * `vscode` import: a unit test proves the fit by parsing the result with the view's own schema.
 */
export function fitHostMessage(message: HostMessage): { message: HostMessage; notes: string[] } {
  const notes: string[] = [];
  return { message: fitMessage(message, notes), notes };
}

/** The part of a turn's text the view shows: all of it up to `LIMITS.text` characters. */
export function shownText(text: string): string {
  return cut(text, LIMITS.text);
}

/** An id as the view gets it (longer ones are cut): compare what the view sends back with this. */
export function viewId(id: string): string {
  return cut(id, LIMITS.id) || '-';
}

const STATUSES = new Set<string>(TurnStatus.options);
const ACTIONS = new Set<string>(ErrorAction.options);
const PROBLEMS = new Set<string>(PictureProblem.options);
const IMAGE_SOURCE = /^https?:\/\/[^\s"'<>\\]+$/;

function fitMessage(message: HostMessage, notes: string[]): HostMessage {
  switch (message.type) {
    case 'state': {
      const { turns, earlierTurns } = fitTurns(message.turns, message.earlierTurns, notes);
      return {
        type: 'state',
        hasKey: message.hasKey === true,
        conversationId: fitId(message.conversationId, 'conversation id', notes),
        turns,
        earlierTurns,
        earlierQuestions: fitQuestions(message.earlierQuestions, notes),
        busy: message.busy === true,
        ...fitModels(message.models, message.model, notes),
        draft: fitLong(typeof message.draft === 'string' ? message.draft : '', LIMITS.draft, 'draft', notes),
        ...(isCount(message.draftAt) ? { draftAt: message.draftAt } : {}),
        attachments: fitChips(message.attachments, notes),
      };
    }
    case 'earlierPage':
      return {
        type: 'earlierPage',
        conversationId: fitId(message.conversationId, 'conversation id', notes),
        before: fitId(message.before, 'turn id', notes),
        ...fitTurns(message.turns, message.earlierTurns, notes),
        earlierQuestions: fitQuestions(message.earlierQuestions, notes),
      };
    case 'turnAdded':
      return { type: 'turnAdded', conversationId: fitId(message.conversationId, 'conversation id', notes), turn: fitTurn(message.turn, notes) };
    case 'turnUpdated':
      return { type: 'turnUpdated', turn: fitTurn(message.turn, notes) };
    case 'delta':
    case 'reasoningDelta':
      return {
        type: message.type,
        turnId: fitId(message.turnId, 'turn id', notes),
        text: fitLong(typeof message.text === 'string' ? message.text : '', LIMITS.text, 'streamed piece of a reply', notes),
      };
    case 'history':
      return { type: 'history', conversations: fitHistory(message.conversations, notes) };
    case 'models':
      return { type: 'models', ...fitModels(message.models, message.model, notes) };
    case 'attachments':
      return { type: 'attachments', attachments: fitChips(message.attachments, notes) };
    case 'attachmentsRefused':
      return {
        type: 'attachmentsRefused',
        messages: listOf(message.messages)
          .slice(0, MAX_ATTACHED_FILES)
          .map((text) => fitText(String(text), LIMITS.errorMessage, 'refusal', notes)),
      };
    case 'busy':
      return { type: 'busy', busy: message.busy === true };
    case 'keyState':
      return { type: 'keyState', hasKey: message.hasKey === true };
    case 'replyWaiting':
      return { type: 'replyWaiting', turnId: fitId(message.turnId, 'turn id', notes), waiting: message.waiting === true };
    case 'focusInput':
      return { type: 'focusInput' };
    case 'openHistory':
      return { type: 'openHistory' };
  }
}

// ── Turns ────────────────────────────────────────

/** At most `LIMITS.turnsPerMessage` turns, the newest: those left out count as earlier turns. */
function fitTurns(turns: readonly Turn[], earlierTurns: number, notes: string[]): { turns: Turn[]; earlierTurns: number } {
  const all = listOf(turns);
  const kept = all.slice(-LIMITS.turnsPerMessage);
  if (kept.length < all.length)
    notes.push(`Chat view: ${all.length} turns in one message; the oldest ${all.length - kept.length} are left for the view to ask for`);
  return { turns: kept.map((turn) => fitTurn(turn, notes)), earlierTurns: (isCount(earlierTurns) ? earlierTurns : 0) + all.length - kept.length };
}

function fitTurn(turn: Turn, notes: string[]): Turn {
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
function fitImage(image: ImageAttachment, notes: string[]): ImageAttachment | undefined {
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
function fitDocument(document: AttachedDocument, notes: string[]): AttachedDocument {
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

// ── Lists and labels ─────────────────────────────

/** The newest questions that a message may carry; one longer than a message could not be sent again. */
function fitQuestions(questions: readonly string[], notes: string[]): string[] {
  const usable = listOf(questions).filter((question) => typeof question === 'string' && question.length <= LIMITS.draft);
  if (usable.length < listOf(questions).length) notes.push('Chat view: earlier questions too long to send again are left out of ↑ recall');
  return usable.slice(-LIMITS.earlierQuestions);
}

/**
 * The models the picker offers, with the selected one among them: names longer than the view takes
 * are left out (a name cut short would select another model, or none), and the list is cut.
 */
function fitModels(models: readonly string[], model: string, notes: string[]): { models: string[]; model: string } {
  const selected = typeof model === 'string' ? model : '';
  const shownModel = fitText(selected, LIMITS.modelName, "selected model's name", notes);
  const names = new Set(listOf(models).filter((name): name is string => typeof name === 'string'));
  const fitting = [...names].filter((name) => name.length <= LIMITS.modelName);
  if (fitting.length < names.size)
    notes.push(`Chat view: ${names.size - fitting.length} model names longer than ${LIMITS.modelName} characters are left out of the picker`);
  const listed = !shownModel || fitting.includes(shownModel) ? fitting : [shownModel, ...fitting];
  let kept = listed.slice(0, LIMITS.models);
  if (shownModel && !kept.includes(shownModel)) kept = [...kept.slice(0, -1), shownModel];
  if (kept.length < listed.length) notes.push(`Chat view: the picker offers ${kept.length} of ${listed.length} models`);
  return { models: kept, model: shownModel };
}

function fitHistory(conversations: readonly ConversationSummary[], notes: string[]): ConversationSummary[] {
  const all = listOf(conversations);
  // An id cut short would open nothing: such an entry cannot be offered.
  const openable = all.filter((entry) => typeof entry?.id === 'string' && entry.id.length > 0 && entry.id.length <= LIMITS.id);
  if (openable.length < all.length) notes.push(`Chat view: ${all.length - openable.length} chats without a usable id are left out of the history`);
  if (openable.length > LIMITS.conversations) notes.push(`Chat view: the history lists the newest ${LIMITS.conversations} of ${openable.length} chats`);
  return openable.slice(0, LIMITS.conversations).map((entry) => ({
    id: entry.id,
    title: fitText(typeof entry.title === 'string' ? entry.title : '', LIMITS.title, 'chat title', notes),
    updatedAt: Number.isFinite(entry.updatedAt) ? entry.updatedAt : 0,
  }));
}

function fitChips(chips: readonly AttachmentChip[], notes: string[]): AttachmentChip[] {
  return listOf(chips)
    .slice(0, MAX_ATTACHMENTS + MAX_ATTACHED_FILES)
    .map((chip) => {
      const fitted: AttachmentChip = {
        id: fitId(chip.id, 'attachment id', notes),
        label: fitText(String(chip.label ?? ''), LIMITS.chipLabel, 'attachment label', notes),
        title: fitText(String(chip.title ?? ''), LIMITS.chipTitle, 'attachment title', notes),
      };
      const picture = chip.picture === undefined ? undefined : fitImage(chip.picture, notes);
      if (picture) fitted.picture = picture;
      if (chip.document) fitted.document = fitDocument({ name: '', ...chip.document }, notes);
      return fitted;
    });
}

// ── Values ───────────────────────────────────────

function fitId(id: string, what: string, notes: string[]): string {
  const value = typeof id === 'string' ? id : '';
  if (value.length === 0 || value.length > LIMITS.id)
    notes.push(`Chat view: a ${what} of ${value.length} characters is shown as ${value ? 'its beginning' : '-'}`);
  return viewId(value);
}

/** `text` within `max` characters: a label that is cut ends in '…'. */
function fitText(text: string, max: number, what: string, notes: string[]): string {
  if (text.length <= max) return text;
  notes.push(`Chat view: a ${what} of ${text.length} characters is cut to ${max}`);
  return `${cut(text, max - 1)}…`;
}

/** Text of the user's or the model's, within `max` characters: cut as it is, without a mark. */
function fitLong(text: string, max: number, what: string, notes: string[]): string {
  if (text.length > max) notes.push(`Chat view: a ${what} of ${text.length} characters is cut to ${max}`);
  return cut(text, max);
}

/** At most `max` characters, never between the two halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

function listOf<T>(value: readonly T[] | undefined): T[] {
  return Array.isArray(value) ? [...(value as readonly T[])] : [];
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
