// The table of contents of a zip file (its central directory), read without inflating anything:
// what an .xlsx holds and how large each part says it is, checked before the workbook is streamed.

export interface ZipEntry {
  name: string;
  compressedBytes: number;
  /** As the directory declares it; a ZIP64 entry (sizes past 4 GB) reads as Infinity. */
  uncompressedBytes: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const END_MIN_BYTES = 22;
const COMMENT_MAX_BYTES = 0xffff;

/** Whether the bytes start like a zip file (a local file header): what every .xlsx is. */
export const startsLikeZip = (bytes: Buffer): boolean => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

/** The entries of a zip's central directory; null when the bytes hold none (truncated, not a zip). */
export function zipDirectory(bytes: Buffer): ZipEntry[] | null {
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
      compressedBytes: compressed === 0xffffffff ? Infinity : compressed,
      uncompressedBytes: uncompressed === 0xffffffff ? Infinity : uncompressed,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
