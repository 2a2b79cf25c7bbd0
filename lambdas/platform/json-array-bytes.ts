/**
 * Items per piece: a piece's JSON stays far under V8's large-object threshold (128 KiB) for items
 * of a few hundred bytes, so it dies young in the next scavenge.
 */
const PIECE_ITEMS = 256;

/**
 * `Buffer.from(JSON.stringify(items))`, byte for byte, without the whole array's JSON as one string.
 *
 * A string over 128 KiB is allocated in V8's large-object space, which only a full collection frees:
 * Prepare wrote each 5,000-item chunk (650 KB of JSON) that way, 50 chunks of a 250,000-row upload,
 * so about 32 MB of dead strings waited there for the step's end in a process that runs every step
 * (`npm start`; docs/performance.md, "The local process's memory, sixth round"). Here each piece of
 * PIECE_ITEMS items is stringified as an array (so an item JSON leaves out, such as `undefined`, is
 * `null` as in the whole array), stripped of its brackets and written into one buffer.
 */
export function jsonArrayBytes(items: readonly unknown[]): Buffer {
  const pieces: string[] = [];
  let bytes = 2 + Math.max(0, Math.ceil(items.length / PIECE_ITEMS) - 1);
  for (let i = 0; i < items.length; i += PIECE_ITEMS) {
    const piece = JSON.stringify(items.slice(i, i + PIECE_ITEMS));
    pieces.push(piece);
    bytes += Buffer.byteLength(piece) - 2;
  }
  const out = Buffer.allocUnsafe(bytes);
  let at = out.write('[');
  pieces.forEach((piece, n) => {
    if (n > 0) at += out.write(',', at);
    at += out.write(piece.slice(1, -1), at);
  });
  out.write(']', at);
  return out;
}
