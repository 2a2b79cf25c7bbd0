import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, GLYPHS } from '../../../lambdas/spam/carrier-test/bitmap-font';
import { BANNER_BOX, callScreenTexts, displayNumber, renderCallScreen, SCREEN_HEIGHT, SCREEN_WIDTH, type CallScreenInput, type PlacedText } from '../../../lambdas/spam/carrier-test/call-screen';
import { SimulatedCarrierTests } from '../../../lambdas/spam/carrier-test/simulator';

// The simulator's screenshot is legible: every text is read back from the decoded JPEG, glyph by
// glyph (the nearest glyph of the font for each cell), so a lossy encoding, a misplaced text or a
// missing glyph fails here.

type Decoded = { width: number; height: number; data: Uint8Array };
const luminance = (d: Decoded, x: number, y: number) => {
  const i = (y * d.width + x) * 4;
  return 0.299 * d.data[i]! + 0.587 * d.data[i + 1]! + 0.114 * d.data[i + 2]!;
};
const lum = ([r, g, b]: readonly number[]) => 0.299 * r! + 0.587 * g! + 0.114 * b!;

/** Reads `length` characters at a text's place: each font pixel sampled at its centre. */
function readBack(image: Decoded, t: Pick<PlacedText, 'x' | 'y' | 'scale' | 'color' | 'background'>, length: number): string {
  const ink = lum(t.color);
  const paper = lum(t.background);
  let out = '';
  for (let i = 0; i < length; i++) {
    const cell: boolean[][] = [];
    for (let row = 0; row < GLYPH_HEIGHT; row++) {
      cell.push([]);
      for (let col = 0; col < GLYPH_WIDTH; col++) {
        const x = t.x + (i * ADVANCE + col) * t.scale + Math.floor(t.scale / 2);
        const y = t.y + row * t.scale + Math.floor(t.scale / 2);
        cell[row]!.push(Math.abs(luminance(image, x, y) - ink) < Math.abs(luminance(image, x, y) - paper));
      }
    }
    let best = '';
    let bestDistance = Infinity;
    for (const [ch, glyph] of GLYPHS) {
      const distance = glyph.flat().filter((on, k) => on !== cell.flat()[k]).length;
      if (distance < bestDistance) [best, bestDistance] = [ch, distance];
    }
    out += best;
  }
  return out;
}

const flagged: CallScreenInput = { carrier: 't-mobile', phoneNumber: '+12023180666', capturedAt: '2026-11-23T14:32:05.120Z', label: 'Scam Likely' };

describe('the simulated incoming-call screen', () => {
  it('shows the carrier, the time, the label and the number, legibly after JPEG encoding', () => {
    const bytes = renderCallScreen(flagged);
    const image = jpeg.decode(bytes, { useTArray: true });
    expect([image.width, image.height]).toEqual([SCREEN_WIDTH, SCREEN_HEIGHT]);
    const texts = callScreenTexts(flagged);
    expect(texts.map((t) => t.text)).toEqual(['T-Mobile', '14:32', 'SIMULATED TEST CALL', 'Scam Likely', '+1 (202) 318-0666', 'Incoming call', 'Decline', 'Accept', '2026-11-23 14:32 UTC']);
    for (const t of texts) expect(readBack(image, t, t.text.length)).toBe(t.text);
    expect(Buffer.from(bytes).toString('latin1')).toContain('SIMULATED incoming call from +12023180666 on t-mobile');
  });

  it('reads another number and label back as themselves (the reader is not fooled)', () => {
    const other = { ...flagged, carrier: 'verizon' as const, phoneNumber: '+14155550199', label: 'Potential Spam' };
    const image = jpeg.decode(renderCallScreen(other), { useTArray: true });
    const mine = callScreenTexts(flagged);
    // Read at the first screen's number position: the other screen does not say the first number.
    const number = mine.find((t) => t.text.startsWith('+1'))!;
    expect(readBack(image, number, number.text.length)).not.toBe(number.text);
    for (const t of callScreenTexts(other)) expect(readBack(image, t, t.text.length)).toBe(t.text);
  });

  it('has no banner and no label text when the call was not labelled', () => {
    const clean = { ...flagged, label: null };
    const image = jpeg.decode(renderCallScreen(clean), { useTArray: true });
    expect(callScreenTexts(clean).map((t) => t.text)).not.toContain('Scam Likely');
    // The banner's area is the screen's background, every pixel of it (within JPEG noise).
    let brightest = 0;
    for (let y = BANNER_BOX.y; y < BANNER_BOX.y + BANNER_BOX.height; y++) for (let x = BANNER_BOX.x; x < BANNER_BOX.x + BANNER_BOX.width; x++) brightest = Math.max(brightest, luminance(image, x, y));
    expect(brightest).toBeLessThan(40);
  });

  it('keeps a long label on the screen and writes unknown characters as ?', () => {
    const texts = callScreenTexts({ ...flagged, label: 'Telemarketing Suspected Robocall Risk', phoneNumber: '+442071838750' });
    const label = texts[3]!;
    expect(label.x).toBeGreaterThanOrEqual(BANNER_BOX.x);
    expect(label.x + (label.text.length * ADVANCE - 1) * label.scale).toBeLessThanOrEqual(BANNER_BOX.x + BANNER_BOX.width);
    expect(texts[4]!.text).toBe('+442071838750');
    expect(displayNumber('+12023180666')).toBe('+1 (202) 318-0666');
    const image = jpeg.decode(renderCallScreen({ ...flagged, label: 'Spam — Likely' }), { useTArray: true });
    const t = callScreenTexts({ ...flagged, label: 'Spam — Likely' })[3]!;
    expect(readBack(image, t, t.text.length)).toBe('Spam ? Likely');
    expect(() => callScreenTexts({ ...flagged, capturedAt: 'yesterday' })).toThrow(/not a date/);
  });

  it('is what the simulator returns for a flagged test, with the capture time it reports', async () => {
    const outcome = await new SimulatedCarrierTests().runTest({ testRunId: 'r1', numberId: 'n1', phoneNumber: '+12023180666', carrier: 'at&t', day: '2026-11-23' });
    expect(outcome.screenshot?.contentType).toBe('image/jpeg');
    const image = jpeg.decode(outcome.screenshot!.bytes, { useTArray: true });
    const texts = callScreenTexts({ carrier: 'at&t', phoneNumber: '+12023180666', capturedAt: outcome.captured_at!, label: outcome.spam_label });
    expect(texts.map((t) => t.text)).toContain('Suspected Spam');
    for (const t of texts) expect(readBack(image, t, t.text.length)).toBe(t.text);
  });
});
