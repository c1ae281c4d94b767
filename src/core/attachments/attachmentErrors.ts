/**
 * A chat request with attached files that the service refuses with a 4xx. Which models accept
 * pictures (for which keys) is not documented reliably, so the contract says to read such a refusal
 * as "this model cannot see the attachments" and to say so: the error keeps its kind and status
 * and gets the code ATTACHMENTS_REFUSED and a message that tells the caller what to do.
 */
import { ServiceError } from '../serviceError';
import type { ChatRequest } from '../service/schemas';

export const ATTACHMENTS_REFUSED = 'ATTACHMENTS_REFUSED';

/** Refusals that are about the request's content; not the key (401), money (402), size (413) or rate (429). */
const REFUSALS = new Set([400, 403, 404, 415, 422]);

export function hasAttachments(request: ChatRequest): boolean {
  return request.messages.some((message) => (message.attachments?.length ?? 0) > 0);
}

/** The error to throw for a failed chat request: explained when it is the attachments' refusal. */
export function explainAttachmentRefusal(error: unknown, request: ChatRequest): unknown {
  if (!(error instanceof ServiceError) || error.status === undefined || !REFUSALS.has(error.status) || !hasAttachments(request)) return error;
  return new ServiceError(
    error.kind,
    `The model ${request.model} refused the attached files (${error.status}: ${error.message}). ` +
      'It may not accept pictures or files: choose a model that does, or ask without the attachments.',
    { status: error.status, requestId: error.requestId, code: ATTACHMENTS_REFUSED, cause: error },
  );
}
