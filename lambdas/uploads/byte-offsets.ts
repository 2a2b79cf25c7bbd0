import { isAscii } from 'node:buffer';
import { rowCount, type StoredLayout } from './work-file';

// The stored spans are offsets into the original's decoded text (UTF-16 units); the processed file
// is written by copying the original's bytes, so each offset is turned into a byte offset once, in
// one forward pass (spans come in file order). An ASCII file needs no pass at all.

export interface ByteSpans {
  header: [number, number];
  start: Int32Array;
  end: Int32Array;
}

/** `skip`: bytes before the text the offsets count in (a UTF-8 BOM the decoder dropped). */
export function byteSpans(bytes: Buffer, skip: number, layout: StoredLayout): ByteSpans {
  const n = rowCount(layout);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  if (isAscii(bytes.subarray(skip))) {
    for (let i = 0; i < n; i++) {
      start[i] = layout.start[i]! + skip;
      end[i] = layout.end[i]! + skip;
    }
    return { header: [layout.header.start + skip, layout.header.end + skip], start, end };
  }
  let unit = 0;
  let byte = skip;
  const toByte = (offset: number): number => {
    while (unit < offset) {
      const b = bytes[byte]!;
      // A 4-byte sequence is two UTF-16 units (a surrogate pair).
      if (b < 0x80) byte += 1;
      else if (b < 0xe0) byte += 2;
      else if (b < 0xf0) byte += 3;
      else {
        byte += 4;
        unit++;
      }
      unit++;
    }
    return byte;
  };
  const header: [number, number] = [toByte(layout.header.start), toByte(layout.header.end)];
  for (let i = 0; i < n; i++) {
    start[i] = toByte(layout.start[i]!);
    end[i] = toByte(layout.end[i]!);
  }
  return { header, start, end };
}
