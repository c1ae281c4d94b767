import {
  codebaseSources,
  fileExtension,
  linkSourceMarkers,
  parseMediaReply,
  pictureIdsOf,
  questionPictureIds,
  stableSourcePrefix,
  stableStreamingPrefix,
  webSourceList,
  type ReplyError,
  type Sources,
  type StoredTurn,
} from '../../core';
import { ErrorAction, LIMITS, PICTURE_MARKER, type ImageAttachment, type Turn, type TurnError } from '../../shared/protocol';
import type { PictureStore } from './pictureStore';
import { shownText } from './fitValues';

/**
 * A reply as the view shows it: media tags replaced by markers, and the ids of the pictures for
 * them (images, and video covers: a video itself cannot play in the view). Applied to a growing
 * prefix it only ever appends, so streamed deltas and the final text agree.
 */
export function displayedReply(content: string, sources?: Sources): { text: string; pictureIds: string[] } {
  const pictureIds: string[] = [];
  const text = parseMediaReply(linkSourceMarkers(content, webSourceList(sources)))
    .parts.map((part) => {
      if (part.type === 'text') return part.text;
      const pictureId = part.type === 'image' ? part.fileId : part.coverFileId;
      if (!pictureId) return '';
      pictureIds.push(pictureId);
      return PICTURE_MARKER;
    })
    .join('');
  return { text, pictureIds };
}

/**
 * What the view gets next of a streaming reply of which it shows `shown` characters: the text to
 * append ('' when there is none yet) and how much it shows then. A half-received media tag is held
 * back so it never flashes as text, a whole one is a marker; nothing beyond what the view shows of
 * a text is sent (`cut`: the reply goes on past it, and its final state says so).
 */
export function streamedDelta(content: string, shown: number, sources?: Sources): { text: string; shown: number; cut: boolean } {
  const displayed = displayedReply(stableSourcePrefix(stableStreamingPrefix(content)), sources).text;
  const visible = shownText(displayed);
  return { text: visible.slice(shown), shown: Math.max(shown, visible.length), cut: visible.length < displayed.length };
}

/** A reply's text with `picture` where each picture stood (by default nothing): what Copy reply and Export give. */
export function replyTextOf({ content, webSources }: Pick<StoredTurn, 'content' | 'webSources'>, picture = ''): string {
  return displayedReply(content, webSources).text.replaceAll(PICTURE_MARKER, picture);
}

/** The stored pictures of these turns (the replies' downloaded ones, the questions' attached ones), by file id (reading them takes a while). */
export async function picturesOf(turns: readonly StoredTurn[], images: PictureStore): Promise<Map<string, ImageAttachment>> {
  const ids = [...pictureIdsOf(turns), ...questionPictureIds(turns)];
  const attachments = ids.length ? await images.attachments(ids) : [];
  return new Map(attachments.map((attachment) => [attachment.fileId, attachment]));
}

/**
 * A stored turn as the view shows it: a question with its pictures' thumbnails and its documents'
 * names, types and sizes (the view shows them as chips; their bytes stay here); a reply with
 * pictures for its markers, a streaming reply's stable part only.
 */
export function toViewTurn(turn: StoredTurn, pictures: ReadonlyMap<string, ImageAttachment> = new Map()): Turn {
  if (turn.role === 'user') {
    const { pictures: attached, documents: attachedDocuments, codebase: _codebase, webSources: _web, reasoning: _reasoning, error, ...question } = turn;
    const images = (attached ?? []).flatMap((picture) => pictures.get(picture.id) ?? []);
    const documents = (attachedDocuments ?? []).map(({ name, bytes }) => ({ name, extension: fileExtension(name), bytes }));
    const sources = codebaseSources(turn);
    return {
      ...question,
      ...viewError(error),
      images: images.length ? images : undefined,
      documents: documents.length ? documents : undefined,
      sources: sources.length ? sources : undefined,
    };
  }
  const streaming = turn.status === 'streaming';
  const { reasoning, webSources, documents: _none, error, ...reply } = turn; // a reply attaches no documents
  const { text, pictureIds } = displayedReply(streaming ? stableSourcePrefix(stableStreamingPrefix(turn.content)) : turn.content, webSources);
  const images = pictureIds.flatMap((id) => pictures.get(id) ?? []);
  // The view fills the markers in order: a finished reply's picture that could not be had loses its
  // marker, or the next picture would take its place. (While streaming, a marker is a picture to come.)
  let index = 0;
  const content = streaming ? text : text.replaceAll(PICTURE_MARKER, () => (pictures.has(pictureIds[index++]) ? PICTURE_MARKER : ''));
  const sources = webSourceList(webSources).slice(0, LIMITS.webSources);
  return {
    ...reply,
    ...viewError(error),
    content,
    images: images.length ? images : undefined,
    reasoning: reasoning ? shownText(reasoning) : undefined,
    webSources: sources.length ? sources : undefined,
    rules: turn.rules?.slice(0, LIMITS.rules),
  };
}

/** A reply's error as the view takes it: only the buttons the view knows (the engine names them as strings). */
function viewError(error: ReplyError | undefined): { error?: TurnError } {
  if (!error) return {};
  return { error: { ...error, actions: error.actions.filter((action): action is ErrorAction => ErrorAction.safeParse(action).success) } };
}
