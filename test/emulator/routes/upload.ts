// POST /api/v1/files: a multipart upload (`file` with its name and type, `purpose=general`) that
// the next chat messages can attach. The documented limits are enforced: pictures (jpeg, png, tiff,
// bmp) up to 15 MB, text documents up to 40 MB; another type is 422, a larger file 413. The file is
// kept with the uploader's X-Client-ID, as generated pictures are, so attaching or downloading it
// with another id is refused the same way.
import { randomUUID } from 'node:crypto';
import { header, json, modelError, type Reply } from '../http';
import { formBoundary, parseForm } from '../multipart';
import type { RouteContext } from '../state';

const MiB = 1024 * 1024;

/**
 * What the service takes, by media type. Written out here rather than imported from the client: the
 * emulator stands for the service, so a client whose list is wrong must meet a refusal in tests.
 */
const KINDS: Record<string, 'image' | 'document'> = {
  'image/jpeg': 'image',
  'image/png': 'image',
  'image/tiff': 'image',
  'image/bmp': 'image',
  'text/plain': 'document',
  'application/pdf': 'document',
  'application/msword': 'document',
  'application/vnd.ms-powerpoint': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'document',
  'application/epub+zip': 'document',
};
const LIMITS = { image: 15 * MiB, document: 40 * MiB };

export function upload({ state, req, raw }: RouteContext): Reply {
  if (req.method !== 'POST') return modelError(405);
  const boundary = formBoundary(header(req, 'content-type'));
  if (!boundary) return modelError(400, 'Bad request: expected a multipart/form-data body');
  const parts = parseForm(raw, boundary);
  if (!parts) return modelError(400, 'Bad request: malformed multipart/form-data body');

  const file = parts.find((part) => part.name === 'file');
  if (!file || file.filename === undefined || file.filename === '') return modelError(422, 'Invalid params: file is required');
  const purpose = parts.find((part) => part.name === 'purpose')?.content.toString('utf8');
  if (purpose !== 'general') return modelError(422, 'Invalid params: purpose must be "general"');
  const contentType = (file.contentType ?? '').split(';')[0].trim().toLowerCase();
  const kind = Object.hasOwn(KINDS, contentType) ? KINDS[contentType] : undefined;
  if (!kind) return modelError(422, `Invalid params: unsupported file type '${contentType || 'none'}'`);
  if (file.content.length > LIMITS[kind]) return modelError(413, 'Payload too large');

  const id = randomUUID();
  const createdAt = Math.floor(Date.now() / 1000);
  state.files.set(id, {
    clientId: header(req, 'x-client-id'),
    content: Buffer.from(file.content),
    upload: { filename: file.filename, contentType, kind, createdAt },
  });
  return json({ id, object: 'file', bytes: file.content.length, created_at: createdAt, filename: file.filename, purpose });
}
