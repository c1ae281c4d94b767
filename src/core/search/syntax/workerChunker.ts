import { Worker } from 'node:worker_threads';
import { chunkText, type Chunk, type ChunkOptions } from './chunker';
import type { SourceChunker } from './syntaxChunker';

/** What the worker is started with. */
export interface ChunkWorkerData {
  parserFolder: string;
}

/** A text to cut, sent to the worker. */
export interface ChunkRequest {
  id: number;
  text: string;
  languageIdOrPath: string;
  options: ChunkOptions;
}

/** What the worker sends back: a request's chunks or why it has none, or a problem to tell the user's log. */
export type ChunkWorkerMessage = { id: number; chunks: Chunk[] } | { id: number; error: string } | { problem: string };

interface Pending {
  text: string;
  options: ChunkOptions;
  resolve: (chunks: Chunk[]) => void;
  reject: (error: Error) => void;
}

/** How long the worker stays after its last answer: a scan's files follow one another far faster. */
const IDLE_MS = 3_000;

/**
 * Cuts files along their syntax tree in a worker thread (chunkWorker.ts, loaded from `workerFile`),
 * so that parsing never holds the extension host's event loop, and what it costs in memory is not
 * the host's: tree-sitter's WebAssembly memory grows to the largest file parsed and never shrinks,
 * and parsing leaves garbage that V8 keeps as committed heap. The worker is started on the first
 * file and ended once idle (IDLE_MS), which gives all of that back; the next scan starts a new one.
 * A worker that dies mid-file (out of memory, say) costs only that file's syntax: it is cut by
 * lines, `onProblem` is told, and the next file starts a new worker.
 */
export class WorkerChunker implements SourceChunker {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idleTimer?: NodeJS.Timeout;
  /** Workers started since made (the tests see one ended when idle). */
  started = 0;

  constructor(
    private readonly workerFile: string,
    private readonly parserFolder: string,
    private readonly onProblem: (message: string) => void = () => undefined,
    private readonly idleMs = IDLE_MS,
  ) {}

  chunk(text: string, languageIdOrPath: string, options: ChunkOptions = {}): Promise<Chunk[]> {
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Chunk[]>((resolve, reject) => {
      this.pending.set(id, { text, options, resolve, reject });
      const request: ChunkRequest = { id, text, languageIdOrPath, options };
      worker.postMessage(request);
    });
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Ends the worker (a later `chunk` starts another). */
  dispose(): void {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.failPending('the worker was ended');
    void worker?.terminate();
  }

  private start(): Worker {
    const data: ChunkWorkerData = { parserFolder: this.parserFolder };
    const worker = new Worker(this.workerFile, { workerData: data });
    this.started += 1;
    // A worker waiting for files must not keep the process alive.
    worker.unref();
    worker.on('message', (message: ChunkWorkerMessage) => this.received(message));
    worker.on('error', (error) => this.died(worker, error.message));
    worker.on('exit', (code) => this.died(worker, `it exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private received(message: ChunkWorkerMessage): void {
    if ('problem' in message) {
      this.onProblem(message.problem);
      return;
    }
    const pending = this.pending.get(message.id);
    this.pending.delete(message.id);
    if ('chunks' in message) pending?.resolve(message.chunks);
    else pending?.reject(new Error(message.error));
    if (this.pending.size === 0) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.dispose(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** The worker ended or failed unasked: what it was cutting is cut by lines. */
  private died(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (this.pending.size > 0) this.onProblem(`the syntax parser's thread stopped (${why}), so the files it was cutting are cut by lines`);
    for (const [id, { text, options, resolve }] of this.pending) {
      this.pending.delete(id);
      resolve(chunkText(text, options));
    }
  }

  private failPending(why: string): void {
    for (const [id, { reject }] of this.pending) {
      this.pending.delete(id);
      reject(new Error(why));
    }
  }
}
