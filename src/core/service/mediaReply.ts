import { FILE_ID } from '../../serviceFacts/fileFacts';

/**
 * Finds the generated-media tags the model puts in its replies when it calls its built-in
 * text-to-image function: `<img src="<file id>" fuse="true"/>` (and `<video cover=".." src=".."
 * fuse="true"/>`). Only tags marked `fuse="true"` count, so HTML the model merely talks about is
 * left as text.
 */
export type ReplyPart = { type: 'text'; text: string } | { type: 'image'; fileId: string } | { type: 'video'; fileId: string; coverFileId?: string };

export interface MediaReply {
  /** Text and media in reply order; adjacent text is merged, empty text dropped. */
  parts: ReplyPart[];
  /** Every file id to download (images, videos and video covers), in order, without repeats. */
  fileIds: string[];
}

const MEDIA_TAG = /<(img|video)\b([^<>]*?)\/?>/gi;
const ATTRIBUTE = /([a-z_-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

export function parseMediaReply(content: string): MediaReply {
  const parts: ReplyPart[] = [];
  const fileIds = new Set<string>();
  let last = 0;
  for (const match of content.matchAll(MEDIA_TAG)) {
    const attributes = readAttributes(match[2]);
    const fileId = attributes.get('src');
    if (attributes.get('fuse') !== 'true' || !fileId || !FILE_ID.test(fileId)) continue;
    pushText(parts, content.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[1].toLowerCase() === 'img') {
      parts.push({ type: 'image', fileId });
      fileIds.add(fileId);
      continue;
    }
    const cover = attributes.get('cover');
    const coverFileId = cover && FILE_ID.test(cover) ? cover : undefined;
    parts.push({ type: 'video', fileId, coverFileId });
    if (coverFileId) fileIds.add(coverFileId);
    fileIds.add(fileId);
  }
  pushText(parts, content.slice(last));
  return { parts, fileIds: [...fileIds] };
}

/**
 * The longest prefix of a reply still streaming that cannot be the start of a media tag, so a
 * half-received `<img src="…` is never shown as text and then replaced.
 */
export function stableStreamingPrefix(content: string): string {
  const open = content.lastIndexOf('<');
  if (open === -1 || content.indexOf('>', open) !== -1) return content;
  const tail = content.slice(open + 1, open + 6).toLowerCase();
  const couldBeMedia = 'img'.startsWith(tail.slice(0, 3)) || 'video'.startsWith(tail.slice(0, 5));
  return couldBeMedia ? content.slice(0, open) : content;
}

function readAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, doubleQuoted, singleQuoted] of source.matchAll(ATTRIBUTE)) {
    attributes.set(name.toLowerCase(), doubleQuoted ?? singleQuoted ?? '');
  }
  return attributes;
}

function pushText(parts: ReplyPart[], text: string): void {
  if (text === '') return;
  const previous = parts.at(-1);
  if (previous?.type === 'text') previous.text += text;
  else parts.push({ type: 'text', text });
}
