// The files attached to a chat request's user messages: each must be an upload this client may
// see (404 for an unknown id, 403 for another X-Client-ID's file, as downloads are), a picture
// needs a model that can see pictures (422 otherwise), and a text document must fit the context
// (422, as the contract says). The documented limits of a request hold too (422): one picture a
// message, at most 10 files and under 20 MB of them in all. The last user message's files are
// described in the answer, so a test can see they arrived.
import { VISION_MODELS } from '../constants';
import { header, modelError, type Reply } from '../http';
import type { RouteContext } from '../state';
import { estimateTokens } from '../usage';
import type { ChatRequest } from './chat-request';

const MiB = 1024 * 1024;
/** Written out here rather than imported from the client: a client that breaks them must meet a refusal. */
const REQUEST_LIMITS = { picturesPerMessage: 1, files: 10, bytes: 20 * MiB };

export interface AttachedFile {
  filename: string;
  contentType: string;
  bytes: number;
}

/** The last user message's files, or the error the whole request gets. */
export function checkAttachments(request: ChatRequest, { state, req }: RouteContext): AttachedFile[] | { error: Reply } {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  let attached: AttachedFile[] = [];
  let count = 0;
  let bytes = 0;
  for (const message of request.messages) {
    const files: AttachedFile[] = [];
    for (const id of message.attachments) {
      const file = state.files.get(id);
      if (!file?.upload) return { error: modelError(404, `File '${id}' not found`) };
      if (file.clientId !== undefined && header(req, 'x-client-id') !== file.clientId) {
        return { error: modelError(403, `Access to file '${id}' is denied`) };
      }
      if (file.upload.kind === 'image' && !VISION_MODELS.includes(request.model)) {
        return { error: modelError(422, `Invalid params: model ${request.model} does not support image attachments`) };
      }
      if (
        file.upload.kind === 'document' &&
        file.upload.contentType === 'text/plain' &&
        estimateTokens(file.content.toString('utf8')) > state.options.contextTokens
      ) {
        return { error: modelError(422, `Invalid params: file '${id}' is longer than the model's context`) };
      }
      files.push({ filename: file.upload.filename, contentType: file.upload.contentType, bytes: file.content.length });
      count += 1;
      bytes += file.content.length;
    }
    if (files.filter((file) => file.contentType.startsWith('image/')).length > REQUEST_LIMITS.picturesPerMessage) {
      return { error: modelError(422, 'Invalid params: only one image may be attached to a message') };
    }
    if (message === lastUser) attached = files;
  }
  if (count > REQUEST_LIMITS.files) return { error: modelError(422, `Invalid params: at most ${REQUEST_LIMITS.files} files may be attached to a request`) };
  if (bytes >= REQUEST_LIMITS.bytes) return { error: modelError(413, 'Payload too large: the attached files must be under 20 MB in all') };
  return attached;
}
