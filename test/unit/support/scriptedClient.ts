import { ServiceError, type ChatChunk, type ChatClient, type ChatOptions, type ChatRequest, type FileInfo } from '../../../src/core';
import type { UploadOptions } from '../../../src/core/attachments/fileUpload';

type Step = { chunk: ChatChunk } | { error: Error } | { end: true };

/**
 * One streamed reply, written by the test: each piece of text, the end or a failure arrives when
 * the test says so. Aborting the request ends it as the real client does (a `cancelled` error).
 */
export class ScriptedReply {
  private readonly steps: Step[] = [];
  private wake: () => void = () => undefined;
  /** Whether the one reading the reply aborted it (Stop, another chat). */
  aborted = false;

  constructor(
    readonly request: ChatRequest,
    readonly options: ChatOptions,
  ) {
    options.signal?.addEventListener('abort', () => {
      this.aborted = true;
      this.wake();
    });
  }

  /** The request waits for the account's stream (another request holds it), or got it: as the scheduler tells the caller. */
  waitForStream(waiting: boolean): void {
    this.options.onWait?.(waiting);
  }

  /** The model writes `text` next. */
  write(text: string): void {
    this.push({ chunk: { choices: [{ delta: { content: text }, index: 0 }] } });
  }

  /** The model ends the reply, for `finishReason`. */
  end(finishReason: 'stop' | 'length' | 'blacklist' = 'stop'): void {
    this.push({ chunk: { choices: [{ delta: {}, index: 0, finish_reason: finishReason }] } });
    this.push({ end: true });
  }

  /** The stream fails here, after what was written. */
  fail(error: Error): void {
    this.push({ error });
  }

  /** What the model was asked: the messages' text, the system prompt first. */
  get messages(): string[] {
    return this.request.messages.map((message) => `${message.role}: ${message.content}`);
  }

  async *chunks(): AsyncGenerator<ChatChunk> {
    for (;;) {
      if (this.aborted) throw new ServiceError('cancelled', 'The request was cancelled.');
      const step = this.steps.shift();
      if (!step) {
        await new Promise<void>((resolve) => (this.wake = resolve));
        continue;
      }
      if ('end' in step) return;
      if ('error' in step) throw step.error;
      yield step.chunk;
    }
  }

  private push(step: Step): void {
    this.steps.push(step);
    this.wake();
  }
}

/**
 * A service client whose replies the test writes (`replies`, one per request, in order). Pictures
 * are files it was given (`files`); any other is not found, as the service says of it.
 */
export class ScriptedClient implements ChatClient {
  readonly replies: ScriptedReply[] = [];
  readonly files = new Map<string, Uint8Array>();
  /** The files uploaded, in order (`POST /files`); `failUploads`: the error each upload fails with. */
  readonly uploads: { id: string; filename: string; contentType: string; bytes: Uint8Array }[] = [];
  failUploads?: Error;

  async *chatStream(request: ChatRequest, options: ChatOptions = {}): AsyncGenerator<ChatChunk> {
    const reply = new ScriptedReply(request, options);
    this.replies.push(reply);
    yield* reply.chunks();
  }

  async uploadFile(bytes: Uint8Array, options: UploadOptions): Promise<FileInfo> {
    if (this.failUploads) throw this.failUploads;
    const id = `upload-${this.uploads.length + 1}`;
    this.uploads.push({ id, filename: options.filename, contentType: options.contentType, bytes });
    this.files.set(id, bytes);
    return { id, object: 'file', bytes: bytes.byteLength, created_at: 0, filename: options.filename, purpose: 'general' };
  }

  /** The files deleted (`POST /files/{id}/delete`), in order. */
  readonly deleted: string[] = [];

  async deleteFile(fileId: string): Promise<void> {
    this.deleted.push(fileId);
    this.files.delete(fileId);
  }

  async fileContent(fileId: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const bytes = this.files.get(fileId);
    if (!bytes) throw new ServiceError('notFound', `No file ${fileId}`, { status: 404 });
    return { bytes, contentType: 'image/png' };
  }
}
