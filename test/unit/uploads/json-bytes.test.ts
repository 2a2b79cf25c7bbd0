import { describe, expect, it } from 'vitest';
import { JsonBytes } from '../../../lambdas/uploads/json-bytes';

// create writes its stored lists as bytes (json-bytes.ts); readers JSON.parse them, so the text must
// be JSON.stringify's, whatever the items and wherever a piece of the writer ends.

const written = (w: JsonBytes, open = '[', close = ']') => Buffer.concat(w.parts(open, close)).toString('utf8');

describe('JsonBytes', () => {
  it('writes integers, ASCII and any text as JSON.stringify writes the same list, across many pieces', () => {
    const items: unknown[] = [];
    const w = new JsonBytes();
    const texts = ['', 'é', '🙂', '"quoted"', 'back\\slash', 'line\nbreak', '\u0000\u001f', '\uD800 lone'];
    for (let i = 0; i < 120_000; i++) {
      if (i % 2 === 0) {
        const n = i % 6 === 0 ? 0 : i * 997 + (i % 5) * 100_000_000;
        items.push(n);
        w.item().int(n);
      } else {
        // One text longer than a piece; the others in turn.
        const text = i === 1 ? 'x'.repeat(300_000) : texts[(i >> 1) % texts.length]!;
        items.push(text);
        w.item().utf8(JSON.stringify(text));
      }
    }
    expect(written(w)).toBe(JSON.stringify(items));
  });

  it('writes every digit count of an integer, at the edges of 31 bits and beyond, as JSON.stringify does', () => {
    const values: number[] = [0, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER];
    for (let p = 1; p <= 1e15; p *= 10) values.push(p - 1, p, p + 1);
    const w = new JsonBytes();
    for (const v of values) w.item().int(v);
    expect(written(w)).toBe(JSON.stringify(values));
  });

  it('writes an empty list, one item, and is empty again after its parts are taken', () => {
    const w = new JsonBytes();
    expect(written(w)).toBe('[]');
    w.item().int(7);
    expect(written(w)).toBe('[7]');
    w.item().int(1234567890);
    w.item().int(0);
    expect(written(w)).toBe('[1234567890,0]');
  });

  it('writes each separator whole wherever a piece ends, the item after it in the next piece', () => {
    // Items of 0 to 3 bytes: the separator lands on every byte of a piece, its last included.
    const items: string[] = [];
    const w = new JsonBytes();
    for (let i = 0; i < 400_000; i++) {
      const item = '123'.slice(0, (i * 7) % 4);
      items.push(item);
      w.item().ascii(item);
    }
    expect(written(w)).toBe(`[${items.join(',')}]`);
  });

  it('writes a string a character per item without separators', () => {
    const w = new JsonBytes('');
    for (const c of 'cnr-cc') w.item().ascii(c);
    expect(written(w, '"', '"')).toBe('"cnr-cc"');
  });
});
