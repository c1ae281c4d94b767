import { parentPort, workerData } from 'node:worker_threads';
import type { ChunkRequest, ChunkWorkerData, ChunkWorkerMessage } from './workerChunker';
import { lineChunker, SyntaxChunker, type SourceChunker } from './syntaxChunker';
import { messageOf } from '../../base/errorMessage';

/**
 * The thread WorkerChunker parses in (a bundle of its own: dist/chunkWorker.js): loads the parser
 * from the folder it is given, cuts each text it is sent and answers with the chunks. A parser that
 * does not load is said once, and every file is then cut by lines.
 */
const { parserFolder } = workerData as ChunkWorkerData;
const port = parentPort!;
const post = (message: ChunkWorkerMessage) => port.postMessage(message);

const chunker: Promise<SourceChunker> = SyntaxChunker.load(parserFolder, (problem) => post({ problem })).catch((error: unknown) => {
  post({ problem: `the syntax parser did not load, so files are cut by lines: ${messageOf(error)}` });
  return lineChunker;
});

port.on('message', (request: ChunkRequest) => {
  void chunker
    .then((loaded) => loaded.chunk(request.text, request.languageIdOrPath, request.options))
    .then(
      (chunks) => post({ id: request.id, chunks }),
      (error: unknown) => post({ id: request.id, error: (error as Error)?.message ?? String(error) }),
    );
});
