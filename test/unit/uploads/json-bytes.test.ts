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
        const e164 = `+1212555${String(i % 10_000).padStart(4, '0')}`;
        items.push(e164);
        w.item().ascii('"').ascii(e164).ascii('"');
      } else {
        const text = texts[i % texts.length]!;
        items.push(text);
        w.item().utf8(JSON.stringify(text));
      }
    }
    expect(written(w)).toBe(JSON.stringify(items));
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

  it('writes a string a character per item without separators', () => {
    const w = new JsonBytes('');
    for (const c of 'cnr-cc') w.item().ascii(c);
    expect(written(w, '"', '"')).toBe('"cnr-cc"');
  });
});
