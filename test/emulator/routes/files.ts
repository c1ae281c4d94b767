// GET /api/v1/files/{id}/content: the pictures made by text2image answers (and uploaded files). Files are scoped by
// the X-Client-ID of the generating request, as on the real service, so a client that forgets
// to send the same header gets the same 403 it would get in production.
// POST /api/v1/files/{id}/delete: deletes one, as the official SDK calls it, answering
// {"id", "deleted": true}; the same scope applies.
import { header, json, modelError, type Reply } from '../http';
import type { RouteContext } from '../state';

const CONTENT_PATH = /^\/api\/v1\/files\/([^/]+)\/content$/;

const DELETE_PATH = /^\/api\/v1\/files\/([^/]+)\/delete$/;

export function files({ state, req }: RouteContext, path: string): Reply {
  const match = CONTENT_PATH.exec(path) ?? DELETE_PATH.exec(path);
  if (!match) return modelError(404, 'Not found');
  const deleting = DELETE_PATH.test(path);
  if (req.method !== (deleting ? 'POST' : 'GET')) return modelError(405);
  const id = decodeURIComponent(match[1]);
  const file = state.files.get(id);
  if (!file) return modelError(404, `File '${id}' not found`);
  if (file.clientId !== undefined && header(req, 'x-client-id') !== file.clientId) {
    return modelError(403, `Access to file '${id}' is denied`);
  }
  if (!deleting) return { kind: 'bytes', status: 200, contentType: file.upload?.contentType ?? 'image/jpeg', body: file.content };
  state.files.delete(id);
  return json({ id, deleted: true });
}
