import { crc32 } from 'node:zlib';

/**
 * The embedding cache's journal (see cacheFormat.ts): one line per save since the last compaction,
 *
 *   <CRC-32 of the JSON, 8 hex digits> <JSON>\n
 *
 * whose JSON is `{ rows, crc32, add, dead }`: the save appended `rows` rows to the vectors file
 * (`crc32` the CRC-32 of their bytes), row j of them the vector of `add[j]`, and removed the
 * vectors of `dead`. A line is written after its rows are synced to disk: it is that save's commit
 * point. A line cut short, or not matching its checksum, ends the journal.
 */
export interface JournalRecord {
  rows: number;
  crc32: number;
  add: readonly string[];
  dead: readonly string[];
}

/** The line of `record`, ready to append. */
export function journalLine(record: JournalRecord): Buffer {
  const json = JSON.stringify({ rows: record.rows, crc32: record.crc32, add: record.add, dead: record.dead });
  const body = Buffer.from(json, 'utf8');
  return Buffer.concat([Buffer.from(`${crc32(body).toString(16).padStart(8, '0')} `, 'latin1'), body, Buffer.from('\n', 'latin1')]);
}

/** The records of a journal's bytes, up to the first line cut short or damaged, and how many bytes they take. */
export function readJournal(bytes: Buffer): { records: JournalRecord[]; validBytes: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, at);
    if (end === -1) break;
    const record = parseLine(bytes.subarray(at, end));
    if (!record) break;
    records.push(record);
    at = end + 1;
  }
  return { records, validBytes: at };
}

function parseLine(line: Buffer): JournalRecord | undefined {
  if (line.length < 10 || line[8] !== 0x20) return undefined;
  const body = line.subarray(9);
  if (line.toString('latin1', 0, 8) !== crc32(body).toString(16).padStart(8, '0')) return undefined;
  let data: Partial<JournalRecord>;
  try {
    data = JSON.parse(body.toString('utf8')) as Partial<JournalRecord>;
  } catch {
    return undefined;
  }
  const strings = (list: unknown) => Array.isArray(list) && list.every((key) => typeof key === 'string');
  if (!Number.isSafeInteger(data.rows) || !Number.isSafeInteger(data.crc32) || !strings(data.add) || !strings(data.dead)) return undefined;
  if (data.add.length !== data.rows) return undefined;
  return data as JournalRecord;
}

/** Rows of the vectors file with a checksum to check: `rows` of them after those of the segments before. */
export interface RowSegment {
  rows: number;
  crc32: number | undefined;
}

/**
 * The vectors file's rows as the base (the meta file's `keys`) and the journal's records make them:
 * the key each row holds (undefined for a dead row: replaced or removed since), and the segments
 * whose checksums say the rows are the ones committed.
 */
export function replayJournal(
  baseKeys: readonly string[],
  baseCrc: number | undefined,
  records: readonly JournalRecord[],
): { rowKeys: (string | undefined)[]; segments: RowSegment[] } {
  const rowKeys: (string | undefined)[] = baseKeys.slice();
  const rowOf = new Map<string, number>();
  baseKeys.forEach((key, row) => rowOf.set(key, row));
  const segments: RowSegment[] = [{ rows: baseKeys.length, crc32: baseCrc }];
  const kill = (key: string) => {
    const row = rowOf.get(key);
    if (row === undefined) return;
    rowKeys[row] = undefined;
    rowOf.delete(key);
  };
  for (const record of records) {
    for (const key of record.dead) kill(key);
    for (const key of record.add) {
      kill(key);
      rowOf.set(key, rowKeys.length);
      rowKeys.push(key);
    }
    segments.push({ rows: record.rows, crc32: record.crc32 });
  }
  return { rowKeys, segments };
}
