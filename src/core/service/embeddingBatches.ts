import { ServiceError } from '../serviceError';
import { redactUrl } from '../network/http';

export interface BatchLimits {
  /** Texts per request (the service publishes no limit; ~90 is known to work). */
  maxItems: number;
  /** Characters per request, summed over its texts. */
  maxChars: number;
}

export const defaultBatchLimits: BatchLimits = { maxItems: 64, maxChars: 64_000 };

/**
 * Embeds `texts` in batches that respect `limits`, one request at a time, and returns the vectors
 * in input order. A batch the service finds too large (413) is split in half and each half sent
 * again; a single text that is still too large is an error that names it.
 */
export async function embedInBatches(
  texts: readonly string[],
  limits: BatchLimits,
  embedBatch: (batch: readonly string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (const batch of planBatches(texts, limits)) {
    vectors.push(...(await embedSplittingOnTooLarge(batch, embedBatch)));
  }
  return vectors;
}

/** Consecutive runs of texts, each within both limits (a text over maxChars goes alone). */
export function planBatches(texts: readonly string[], limits: BatchLimits): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (batch.length > 0 && (batch.length >= limits.maxItems || chars + text.length > limits.maxChars)) {
      batches.push(batch);
      batch = [];
      chars = 0;
    }
    batch.push(text);
    chars += text.length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

async function embedSplittingOnTooLarge(batch: readonly string[], embedBatch: (batch: readonly string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
  try {
    return await embedBatch(batch);
  } catch (error) {
    if (!(error instanceof ServiceError) || error.kind !== 'tooLarge') throw error;
    if (batch.length === 1) {
      throw new ServiceError('tooLarge', `A text of ${batch[0].length} characters is too large for the embeddings model: split it into smaller pieces.`, {
        status: error.status,
        requestId: error.requestId,
      });
    }
    const middle = Math.ceil(batch.length / 2);
    const first = await embedSplittingOnTooLarge(batch.slice(0, middle), embedBatch);
    const second = await embedSplittingOnTooLarge(batch.slice(middle), embedBatch);
    return [...first, ...second];
  }
}

/** The vectors of one batch answer in input order (by `index`, never by position), every index exactly once. */
export function vectorsInInputOrder(data: { index: number; embedding: number[] }[], expected: number, url: string): Float32Array[] {
  const vectors = new Array<Float32Array>(expected);
  for (const item of data) {
    if (item.index >= expected || vectors[item.index])
      throw new ServiceError('protocol', `${redactUrl(url)} returned an embedding with index ${item.index} for ${expected} inputs.`);
    vectors[item.index] = Float32Array.from(item.embedding);
  }
  const missing = vectors.findIndex((v) => v === undefined);
  if (data.length !== expected || missing !== -1)
    throw new ServiceError('protocol', `${redactUrl(url)} returned ${data.length} embeddings for ${expected} inputs.`);
  return vectors;
}
