/** How many leading bytes are inspected for a NUL byte, the sign of a binary file (git looks at 8,000). */
const SNIFF_BYTES = 8000;

/**
 * The text of a file's bytes, or undefined when they are not text: a NUL byte near the start
 * (binary formats) or invalid UTF-8 (another encoding, or binary after all). Such files are skipped
 * rather than sent with replacement characters. A UTF-8 byte order mark is dropped.
 */
export function decodeSourceText(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}
