import { isAscii } from 'node:buffer';

// The stored spans are offsets into the original's decoded text (UTF-16 units); the processed file
// is written by copying the original's bytes, so each offset is turned into a byte offset once, in
// one forward pass (spans come in file order). An ASCII file needs no pass at all.

/** What is turned: the header's and each row's character offsets (a stored layout, or its index: layout-index.ts). */
export interface TextSpans {
  header: { start: number; end: number };
  start: ArrayLike<number>;
  end: ArrayLike<number>;
}

export interface ByteSpans {
  header: [number, number];
  start: Int32Array;
  end: Int32Array;
}

/** `skip`: bytes before the text the offsets count in (a UTF-8 BOM the decoder dropped). */
export function byteSpans(bytes: Buffer, skip: number, layout: TextSpans): ByteSpans {
  const n = layout.start.length;
  const start = new Int32Array(n);
  const end = new Int32Array(n);
  if (isAscii(bytes.subarray(skip))) {
    for (let i = 0; i < n; i++) {
      start[i] = layout.start[i]! + skip;
      end[i] = layout.end[i]! + skip;
    }
    return { header: [layout.header.start + skip, layout.header.end + skip], start, end };
  }
  const at = { unit: 0, byte: skip };
  const toByte = (offset: number): number => {
    walk(bytes, 0, at, offset);
    return at.byte;
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
export async function streamByteSpans(pieces: AsyncIterable<Uint8Array>, skip: number, layout: TextSpans): Promise<ByteSpans> {
  const n = layout.start.length;
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
  const pos = { unit: 0, byte: skip };
  let at = 0;
  for await (const piece of pieces) {
    const pieceEnd = at + piece.length;
    const ascii = pos.byte >= pieceEnd || isAscii(piece.subarray(Math.max(0, pos.byte - at)));
    while (k < total) {
      const t = target(k);
      if (ascii) {
        const step = Math.max(0, Math.min(t - pos.unit, pieceEnd - pos.byte));
        pos.unit += step;
        pos.byte += step;
      } else walk(piece, at, pos, t);
      if (pos.unit < t) break;
      put(k++, pos.byte);
    }
    at = pieceEnd;
  }
  while (k < total && target(k) <= pos.unit) put(k++, pos.byte);
  if (k < total) throw new Error(`the original ends before its layout's offset ${target(k)}`);
  return { header, start, end };
}

/**
 * Moves `to` (a UTF-16 unit and the byte of its UTF-8 lead) forward through `piece`, which starts
 * at byte `at` of the file, until its unit reaches `unit` or the piece ends. A 4-byte sequence is
 * two UTF-16 units (a surrogate pair); a sequence cut at the piece's end is counted whole.
 */
function walk(piece: Uint8Array, at: number, to: { unit: number; byte: number }, unit: number): void {
  const end = at + piece.length;
  while (to.unit < unit && to.byte < end) {
    const b = piece[to.byte - at]!;
    if (b < 0x80) to.byte += 1;
    else if (b < 0xe0) to.byte += 2;
    else if (b < 0xf0) to.byte += 3;
    else {
      to.byte += 4;
      to.unit++;
    }
    to.unit++;
  }
}
