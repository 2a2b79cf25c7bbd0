import { describe, expect, it } from 'vitest';
import { JsonBytes } from '../../../lambdas/uploads/json-bytes';

// create writes its stored lists as bytes (json-bytes.ts); readers JSON.parse them, so the text must
// be JSON.stringify's, whatever the items and wherever a piece of the writer ends.

const written = (w: JsonBytes, open = '[', close = ']') => Buffer.concat(w.parts(open, close)).toString('utf8');

describe('JsonBytes', () => {
  it('writes integers, ASCII and any text as JSON.stringify writes the same list, across many pieces', () => {
    const items: unknown[] = [];
    const w = new JsonBytes();
    const texts = ['', 'é', '🙂', '"quoted"', 'back\\slash', 'line\nbreak', '\u0000\u001f', 'x'.repeat(300_000), '\uD800 lone'];
    for (let i = 0; i < 120_000; i++) {
      if (i % 3 === 0) {
        const n = i % 9 === 0 ? 0 : i * 997 + (i % 5) * 100_000_000;
        items.push(n);
        w.item().int(n);
      } else if (i % 3 === 1) {
        // Every digit position varies, zeros included, and the largest and smallest national numbers.
        // What libphonenumber-js reads as valid with fewer digits (+13101234) takes the general path.
        const national = i === 1 ? 2_000_000_000 : i === 4 ? 9_999_999_999 : i % 1000 === 7 ? 3_101_234 : 2_000_000_000 + ((i * 7_919_999_969) % 8_000_000_000);
        items.push(`+1${national}`);
        w.item().e164(national);
      } else {
        const text = texts[i % texts.length]!;
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

describe('JsonBytes.string and .strings', () => {
  it('write JSON.stringify(text) byte for byte for any UTF-16 text: controls, quotes, backslashes, non-ASCII, pairs and lone surrogates', () => {
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    // Code units from every range the encoder treats apart, and whole surrogate pairs.
    const units = [0, 1, 8, 9, 10, 12, 13, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7e, 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0x2028, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xffff];
    const texts: string[] = ['', 'plain', 'Zoë "Z" Ñandú', '🙂', 'a\uD83D', '\uDE42b', 'x'.repeat(50_000), 'é'.repeat(50_000)];
    for (let t = 0; t < 3000; t++) {
      let text = '';
      const length = next() % 12;
      for (let i = 0; i < length; i++) text += next() % 5 === 0 ? '🙂' : String.fromCharCode(next() % 3 === 0 ? next() % 0x10000 : units[next() % units.length]!);
      texts.push(text);
    }
    const one = new JsonBytes();
    for (const text of texts) one.item().string(text);
    expect(written(one)).toBe(JSON.stringify(texts));
    const rows = new JsonBytes();
    for (let i = 0; i + 3 <= texts.length; i += 3) rows.item().strings(texts.slice(i, i + 3));
    const expected = [];
    for (let i = 0; i + 3 <= texts.length; i += 3) expected.push(texts.slice(i, i + 3));
    expect(Buffer.concat(rows.parts('[', ']')).equals(Buffer.from(JSON.stringify(expected), 'utf8'))).toBe(true);
  });
});
