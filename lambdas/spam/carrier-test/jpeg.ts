// A minimal baseline JPEG encoder for the simulator's screenshots: greyscale, every 8x8 block one
// flat shade (so only DC coefficients are coded), with a comment segment naming what it shows.
// Enough to produce a small, valid image with no image library and no network.

const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]; // ITU T.81 Annex K, table K.3
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
// Flat blocks need only end-of-block; a second symbol (ZRL) keeps the table free of an all-ones code.
const AC_BITS = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALUES = [0x00, 0xf0];
const QUANT = 8;

function canonicalCodes(bits: number[], values: number[]): Map<number, { code: number; length: number }> {
  const codes = new Map<number, { code: number; length: number }>();
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    for (let i = 0; i < bits[length - 1]!; i++) codes.set(values[k++]!, { code: code++, length });
    code <<= 1;
  }
  return codes;
}

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private count = 0;
  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.count === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00); // byte stuffing
    this.acc = 0;
    this.count = 0;
  }
  finish(): number[] {
    while (this.count !== 0) this.write(1, 1); // pad with ones
    return this.bytes;
  }
}

const segment = (marker: number, payload: number[]): number[] => [0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];

/**
 * Encodes a greyscale image given as a grid of block shades (0-255), each cell an 8x8 block.
 * `comment` goes into a COM segment (ASCII, truncated to 200 characters).
 */
export function encodeBlockJpeg(blocks: number[][], comment: string): Buffer {
  const rows = blocks.length;
  const cols = blocks[0]?.length ?? 0;
  if (rows === 0 || cols === 0 || blocks.some((r) => r.length !== cols)) throw new Error('blocks must be a non-empty rectangle');
  const height = rows * 8;
  const width = cols * 8;
  const dc = canonicalCodes(DC_BITS, DC_VALUES);
  const ac = canonicalCodes(AC_BITS, AC_VALUES);

  const out: number[] = [0xff, 0xd8];
  out.push(...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]));
  const text = [...comment.slice(0, 200)].map((c) => (c.charCodeAt(0) < 128 ? c.charCodeAt(0) : 0x3f));
  out.push(...segment(0xfe, text));
  out.push(...segment(0xdb, [0x00, ...new Array<number>(64).fill(QUANT)]));
  out.push(...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 1, 1, 0x11, 0]));
  out.push(...segment(0xc4, [0x00, ...DC_BITS, ...DC_VALUES]));
  out.push(...segment(0xc4, [0x10, ...AC_BITS, ...AC_VALUES]));
  out.push(...segment(0xda, [1, 1, 0x00, 0, 63, 0]));

  const bits = new BitWriter();
  let previous = 0;
  for (const row of blocks) {
    for (const shade of row) {
      // A flat block's DC coefficient is 8 x (shade - 128); quantised by 8 it is shade - 128.
      const value = Math.max(0, Math.min(255, Math.round(shade))) - 128;
      const diff = value - previous;
      previous = value;
      const magnitude = Math.abs(diff);
      const category = magnitude === 0 ? 0 : Math.floor(Math.log2(magnitude)) + 1;
      const code = dc.get(category)!;
      bits.write(code.code, code.length);
      if (category > 0) bits.write(diff >= 0 ? diff : diff + (1 << category) - 1, category);
      const eob = ac.get(0x00)!;
      bits.write(eob.code, eob.length);
    }
  }
  out.push(...bits.finish(), 0xff, 0xd9);
  return Buffer.from(out);
}
