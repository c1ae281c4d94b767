// The files attached to a chat request's user messages: each must be an upload this client may
// see (404 for an unknown id, 403 for another X-Client-ID's file, as downloads are), a picture
// needs a model that can see pictures (422 otherwise), and a text document must fit the context
// (422, as the contract says). The last user message's files are described in the answer, so a
// test can see they arrived.
import { VISION_MODELS } from '../constants';
import { header, modelError, type Reply } from '../http';
import type { RouteContext } from '../state';
import { estimateTokens } from '../usage';
import type { ChatRequest } from './chat-request';

export interface AttachedFile {
  filename: string;
  contentType: string;
  bytes: number;
}

/** The last user message's files, or the error the whole request gets. */
export function checkAttachments(request: ChatRequest, { state, req }: RouteContext): AttachedFile[] | { error: Reply } {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  let attached: AttachedFile[] = [];
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
    }
    if (message === lastUser) attached = files;
  }
  return attached;
}
