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

/**
 * `byteSpans` read from the original as a stream (finalize never holds it): the same forward
 * walk, piece after piece; an ASCII run of a piece is crossed at once.
 */
export async function streamByteSpans(pieces: AsyncIterable<Uint8Array>, skip: number, layout: StoredLayout): Promise<ByteSpans> {
  const n = rowCount(layout);
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  const header: [number, number] = [0, 0];
  // The offsets to turn, in file order: the header's two, then each record's start and end.
  const total = 2 + 2 * n;
  const target = (k: number): number => (k < 2 ? (k ? layout.header.end : layout.header.start) : k % 2 ? layout.end[(k - 3) / 2]! : layout.start[(k - 2) / 2]!);
  const put = (k: number, byte: number): void => {
    if (k < 2) header[k] = byte;
    else if (k % 2) end[(k - 3) / 2] = byte;
    else start[(k - 2) / 2] = byte;
  };
  let k = 0;
  let unit = 0;
  let byte = skip;
  let at = 0;
  for await (const piece of pieces) {
    const pieceEnd = at + piece.length;
    const ascii = byte >= pieceEnd || isAscii(piece.subarray(Math.max(0, byte - at)));
    while (k < total) {
      const t = target(k);
      if (ascii) {
        const step = Math.max(0, Math.min(t - unit, pieceEnd - byte));
        unit += step;
        byte += step;
      } else {
        while (unit < t && byte < pieceEnd) {
          const b = piece[byte - at]!;
          if (b < 0x80) byte += 1;
          else if (b < 0xe0) byte += 2;
          else if (b < 0xf0) byte += 3;
          else {
            byte += 4;
            unit++;
          }
          unit++;
        }
      }
      if (unit < t) break;
      put(k++, byte);
    }
    at = pieceEnd;
  }
  while (k < total && target(k) <= unit) put(k++, byte);
  if (k < total) throw new Error(`the original ends before its layout's offset ${target(k)}`);
  return { header, start, end };
}
