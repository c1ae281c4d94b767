import { LIMITS, MAX_ATTACHMENTS, MAX_ATTACHED_FILES, type AttachmentChip, type ConversationSummary, type HostMessage } from '../../shared/protocol';
import { fitDocument, fitImage, fitTurn, fitTurns } from './fitTurn';
import { fitId, fitLong, fitText, isCount, listOf } from './fitValues';

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
