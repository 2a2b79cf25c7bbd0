import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';

// The table of contents of a zip file (its central directory), read without inflating anything:
// what an .xlsx holds and how large each part says it is, checked before the workbook is streamed.
// Each part is then read through the directory (`entryText`), never by walking the local entries
// in the order they happen to be stored, and never past the size the directory declares for it.

export interface ZipEntry {
  name: string;
  /** Where its local header starts. */
  offset: number;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedBytes: number;
  /** As the directory declares it (a ZIP64 entry's from its extended information). */
  uncompressedBytes: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Where the central directory starts: the end of the last entry's data. */
  offset: number;
}

const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const END_MIN_BYTES = 22;
const COMMENT_MAX_BYTES = 0xffff;

/** Whether the bytes start like a zip file (a local file header): what every .xlsx is. */
export const startsLikeZip = (bytes: Buffer): boolean => bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL_HEADER;

/** The entries of a zip's central directory; null when the bytes hold none (truncated, not a zip). */
export function zipDirectory(bytes: Buffer): ZipDirectory | null {
  let end = -1;
  for (let i = bytes.length - END_MIN_BYTES; i >= Math.max(0, bytes.length - END_MIN_BYTES - COMMENT_MAX_BYTES); i--) {
    if (bytes.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = bytes.readUInt16LE(end + 10);
  const size = bytes.readUInt32LE(end + 12);
  const offset = bytes.readUInt32LE(end + 16);
  if (offset + size > end) return null;
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const compressed = bytes.readUInt32LE(at + 20);
    const uncompressed = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    if (at + 46 + nameLength + extraLength > end) return null;
    // A ZIP64 entry (some writers mark even small ones so) keeps the sizes and offset that do not
    // fit 32 bits in its extended information (extra field 0x0001), in this order, only those marked.
    const wide = zip64Values(bytes, at + 46 + nameLength, extraLength);
    const take = (value: number) => (value === 0xffffffff ? (wide.shift() ?? Number.NaN) : value);
    const uncompressedBytes = take(uncompressed);
    const compressedBytes = take(compressed);
    const entryOffset = take(bytes.readUInt32LE(at + 42));
    // Marked as ZIP64 without the values: not a zip a writer made.
    if ([uncompressedBytes, compressedBytes, entryOffset].some(Number.isNaN)) return null;
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      offset: entryOffset,
      method: bytes.readUInt16LE(at + 10),
      compressedBytes,
      uncompressedBytes,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, offset };
}

/** The 64-bit values of an entry's ZIP64 extended information (extra field 0x0001), in order; none without one. */
function zip64Values(bytes: Buffer, from: number, length: number): number[] {
  for (let at = from; at + 4 <= from + length; ) {
    const id = bytes.readUInt16LE(at);
    const size = bytes.readUInt16LE(at + 2);
    if (at + 4 + size > from + length) return [];
    if (id === 0x0001) return Array.from({ length: Math.floor(size / 8) }, (_, i) => Number(bytes.readBigUInt64LE(at + 4 + i * 8)));
    at += 4 + size;
  }
  return [];
}

/** Where an entry's data starts (after its local header); null when no matching local header is there. */
function dataStart(bytes: Buffer, entry: ZipEntry): number | null {
  const at = entry.offset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) return null;
  const nameLength = bytes.readUInt16LE(at + 26);
  if (bytes.toString('utf8', at + 30, at + 30 + nameLength) !== entry.name) return null;
  return at + 30 + nameLength + bytes.readUInt16LE(at + 28);
}

/** A stored (not deflated) entry is read in pieces of this size, as zlib hands on an inflated one. */
const STORED_PIECE_BYTES = 64 * 1024;

/** The entry's data is not where the directory says, or is stored in a way a workbook never is. */
export class DamagedEntry extends Error {}
/** The entry inflates to more than the directory declares: a compressed bomb that lies. */
export class PastDeclaredSize extends Error {}

/**
 * An entry's content as UTF-8 text, inflated as it is read (never whole), decoded so that a
 * character split between two inflated chunks stays whole. Fails with `PastDeclaredSize` as soon
 * as it inflates past the size the directory declares, and with `DamagedEntry` when its data is
 * not where the directory says.
 */
export async function* entryText(bytes: Buffer, entry: ZipEntry): AsyncGenerator<string> {
  const start = dataStart(bytes, entry);
  if (start === null || !Number.isFinite(entry.compressedBytes) || start + entry.compressedBytes > bytes.length) throw new DamagedEntry(entry.name);
  const data = bytes.subarray(start, start + entry.compressedBytes);
  const decoder = new StringDecoder('utf8');
  if (entry.method === 0) {
    if (data.length > entry.uncompressedBytes) throw new PastDeclaredSize(entry.name);
    // In pieces as an inflated part comes: a reader hands on what each piece completed.
    for (let at = 0; at < data.length; at += STORED_PIECE_BYTES) yield decoder.write(data.subarray(at, at + STORED_PIECE_BYTES));
    const rest = decoder.end();
    if (rest) yield rest;
    return;
  }
  if (entry.method !== 8) throw new DamagedEntry(entry.name);
  const inflate = createInflateRaw();
  let inflated = 0;
  try {
    // Written whole, read as consumed: zlib inflates only as far as its reader has taken.
    inflate.end(data);
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      inflated += chunk.length;
      if (inflated > entry.uncompressedBytes) throw new PastDeclaredSize(entry.name);
      yield decoder.write(chunk);
    }
  } finally {
    inflate.destroy();
  }
  const rest = decoder.end();
  if (rest) yield rest;
}
