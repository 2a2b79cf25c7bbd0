import { createInflateRaw } from 'node:zlib';

// The table of contents of a zip file (its central directory), read without inflating anything:
// what an .xlsx holds and how large each part says it is, checked before the workbook is streamed.
// A streaming reader (exceljs's) reads the local entries one after another instead, so the
// entries must also be laid out exactly as the directory says (`laidOutAsListed`), and a part's
// declared size can be verified by inflating it with nothing kept (`inflatesWithin`).

export interface ZipEntry {
  name: string;
  /** Where its local header starts. */
  offset: number;
  /** 0 stored, 8 deflated. */
  method: number;
  /** General purpose flags: bit 3, sizes in a data descriptor after the data. */
  flags: number;
  compressedBytes: number;
  /** As the directory declares it; a ZIP64 entry (sizes past 4 GB) reads as Infinity. */
  uncompressedBytes: number;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Where the central directory starts: the end of the last entry's data. */
  offset: number;
}

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
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
    if (at + 46 + nameLength > end) return null;
    entries.push({
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
      offset: bytes.readUInt32LE(at + 42),
      method: bytes.readUInt16LE(at + 10),
      flags: bytes.readUInt16LE(at + 8),
      compressedBytes: compressed === 0xffffffff ? Infinity : compressed,
      uncompressedBytes: uncompressed === 0xffffffff ? Infinity : uncompressed,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, offset };
}

/** Where an entry's data starts (after its local header); null when no matching local header is there. */
function dataStart(bytes: Buffer, entry: ZipEntry): number | null {
  const at = entry.offset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER) return null;
  const nameLength = bytes.readUInt16LE(at + 26);
  if (bytes.toString('utf8', at + 30, at + 30 + nameLength) !== entry.name) return null;
  return at + 30 + nameLength + bytes.readUInt16LE(at + 28);
}

/**
 * Whether the local entries follow one another exactly as the directory lists them, from the first
 * byte to the directory: a reader going through the local entries sees these and no others.
 */
export function laidOutAsListed(bytes: Buffer, directory: ZipDirectory): boolean {
  let expected = 0;
  for (const entry of directory.entries) {
    if (entry.offset !== expected || !Number.isFinite(entry.compressedBytes) || !Number.isFinite(entry.uncompressedBytes)) return false;
    const start = dataStart(bytes, entry);
    if (start === null) return false;
    let next = start + entry.compressedBytes;
    if (entry.flags & 0x8) next += next + 4 <= bytes.length && bytes.readUInt32LE(next) === DATA_DESCRIPTOR ? 16 : 12;
    expected = next;
  }
  return expected === directory.offset;
}

/** Whether an entry inflates to at most `limit` bytes: inflated as a stream, nothing kept, stopped past the limit. */
export async function inflatesWithin(bytes: Buffer, entry: ZipEntry, limit: number): Promise<boolean> {
  const start = dataStart(bytes, entry);
  if (start === null) return false;
  const data = bytes.subarray(start, start + entry.compressedBytes);
  if (entry.method === 0) return data.length <= limit;
  if (entry.method !== 8) return false;
  return new Promise((resolve) => {
    let total = 0;
    const inflate = createInflateRaw();
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        inflate.destroy();
        resolve(false);
      }
    });
    inflate.on('end', () => resolve(total <= limit));
    inflate.on('error', () => resolve(false));
    inflate.end(data);
  });
}
