import encode from 'jpeg-js/lib/encoder.js';
import type { Carrier } from '../carriers';
import { ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, glyphOf } from './bitmap-font';

// The simulator's screenshot: a legible incoming-call screen as a handset on the carrier would show
// it (carrier and time in the status bar, the carrier's label, the calling number, answer and
// decline), drawn in memory with a bitmap font and encoded as a JPEG (the spec's screenshot type).
// No browser and no native image library: the Lambda bundle stays plain JavaScript.

export type Rgb = readonly [number, number, number];

export interface CallScreenInput {
  carrier: Carrier;
  /** The calling (monitored) number, E.164. */
  phoneNumber: string;
  /** When the call was captured, ISO 8601; shown in UTC. */
  capturedAt: string;
  /** What the handset displayed, or null for an unlabelled call. */
  label: string | null;
}

export interface PlacedText {
  text: string;
  x: number;
  y: number;
  scale: number;
  color: Rgb;
  background: Rgb;
}

export const SCREEN_WIDTH = 360;
export const SCREEN_HEIGHT = 640;

const BACKGROUND: Rgb = [18, 22, 33];
const STATUS_BAR: Rgb = [28, 33, 46];
const WHITE: Rgb = [245, 245, 245];
const GREY: Rgb = [165, 172, 186];
const AMBER: Rgb = [240, 190, 70];
const BANNER: Rgb = [196, 36, 36];
const DECLINE: Rgb = [220, 53, 69];
const ACCEPT: Rgb = [40, 167, 69];

const CARRIER_NAMES: Record<Carrier, string> = { 'at&t': 'AT&T', 't-mobile': 'T-Mobile', verizon: 'Verizon' };

export const BANNER_BOX = { x: 16, y: 100, width: SCREEN_WIDTH - 32, height: 60 };
const BUTTONS = [
  { cx: 96, label: 'Decline', color: DECLINE },
  { cx: 264, label: 'Accept', color: ACCEPT },
] as const;
const BUTTON_Y = 520;
const BUTTON_RADIUS = 34;

/** +1 (202) 318-0666 for North American numbers, the E.164 form otherwise. */
export function displayNumber(e164: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return nanp ? `+1 (${nanp[1]}) ${nanp[2]}-${nanp[3]}` : e164;
}

export const textWidth = (text: string, scale: number): number => (text.length * ADVANCE - 1) * scale;
const centered = (text: string, scale: number): number => Math.round((SCREEN_WIDTH - textWidth(text, scale)) / 2);

/** Every text on the screen with where it is drawn (also what tests read back). */
export function callScreenTexts(input: CallScreenInput): PlacedText[] {
  const at = new Date(input.capturedAt);
  if (Number.isNaN(at.getTime())) throw new Error(`capturedAt is not a date: ${input.capturedAt}`);
  const iso = at.toISOString();
  const time = iso.slice(11, 16);
  const carrier = CARRIER_NAMES[input.carrier];
  const number = displayNumber(input.phoneNumber);
  const texts: PlacedText[] = [
    { text: carrier, x: 16, y: 14, scale: 2, color: WHITE, background: STATUS_BAR },
    { text: time, x: SCREEN_WIDTH - 16 - textWidth(time, 2), y: 14, scale: 2, color: WHITE, background: STATUS_BAR },
    { text: 'SIMULATED TEST CALL', x: centered('SIMULATED TEST CALL', 2), y: 58, scale: 2, color: AMBER, background: BACKGROUND },
  ];
  if (input.label) {
    // The label is the carrier's text; cut to what fits rather than run off the screen.
    const fits = Math.floor((BANNER_BOX.width - 12) / (ADVANCE * 3));
    const label = input.label.length > fits ? `${input.label.slice(0, fits - 1)}.` : input.label;
    texts.push({ text: label, x: centered(label, 3), y: BANNER_BOX.y + Math.round((BANNER_BOX.height - 7 * 3) / 2), scale: 3, color: WHITE, background: BANNER });
  }
  texts.push(
    { text: number, x: centered(number, 3), y: 200, scale: 3, color: WHITE, background: BACKGROUND },
    { text: 'Incoming call', x: centered('Incoming call', 2), y: 250, scale: 2, color: GREY, background: BACKGROUND },
    ...BUTTONS.map((b) => ({ text: b.label, x: Math.round(b.cx - textWidth(b.label, 2) / 2), y: BUTTON_Y + BUTTON_RADIUS + 14, scale: 2, color: GREY, background: BACKGROUND })),
    { text: `${iso.slice(0, 10)} ${time} UTC`, x: centered(`${iso.slice(0, 10)} ${time} UTC`, 2), y: 606, scale: 2, color: GREY, background: BACKGROUND },
  );
  return texts;
}

class Raster {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    fill: Rgb,
  ) {
    this.data = Buffer.alloc(width * height * 4, 255);
    this.rect(0, 0, width, height, fill);
  }

  pixel(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    this.data[i] = r;
    this.data[i + 1] = g;
    this.data[i + 2] = b;
  }

  // Row by row over the clipped box: a simulated test draws one screen per number and carrier, and
  // a pixel call per point made drawing cost as much as the JPEG encoding.
  rect(x: number, y: number, w: number, h: number, [r, g, b]: Rgb): void {
    const x0 = Math.max(0, x);
    const x1 = Math.min(this.width, x + w);
    const y1 = Math.min(this.height, y + h);
    for (let yy = Math.max(0, y); yy < y1; yy++) {
      for (let i = (yy * this.width + x0) * 4, end = (yy * this.width + x1) * 4; i < end; i += 4) {
        this.data[i] = r;
        this.data[i + 1] = g;
        this.data[i + 2] = b;
      }
    }
  }

  circle(cx: number, cy: number, r: number, color: Rgb): void {
    for (let yy = cy - r; yy <= cy + r; yy++) for (let xx = cx - r; xx <= cx + r; xx++) if ((xx - cx) ** 2 + (yy - cy) ** 2 <= r * r) this.pixel(xx, yy, color);
  }

  text({ text, x, y, scale, color }: PlacedText): void {
    [...text].forEach((ch, i) => {
      const glyph = glyphOf(ch);
      for (let row = 0; row < GLYPH_HEIGHT; row++)
        for (let col = 0; col < GLYPH_WIDTH; col++) if (glyph[row]![col]) this.rect(x + (i * ADVANCE + col) * scale, y + row * scale, scale, scale, color);
    });
  }
}

/** The screen as JPEG bytes; the comment segment says what it shows, for any tool that reads one. */
export function renderCallScreen(input: CallScreenInput): Buffer {
  const texts = callScreenTexts(input);
  const raster = new Raster(SCREEN_WIDTH, SCREEN_HEIGHT, BACKGROUND);
  raster.rect(0, 0, SCREEN_WIDTH, 44, STATUS_BAR);
  if (input.label) raster.rect(BANNER_BOX.x, BANNER_BOX.y, BANNER_BOX.width, BANNER_BOX.height, BANNER);
  for (const b of BUTTONS) raster.circle(b.cx, BUTTON_Y, BUTTON_RADIUS, b.color);
  // A handset glyph on each button: a bar, tilted for decline.
  raster.rect(BUTTONS[1].cx - 14, BUTTON_Y - 4, 28, 8, WHITE);
  for (let i = 0; i < 28; i++) raster.rect(BUTTONS[0].cx - 14 + i, BUTTON_Y - 4 + Math.round((i - 14) / 4), 1, 8, WHITE);
  for (const t of texts) raster.text(t);
  const caption = `SIMULATED incoming call from ${input.phoneNumber} on ${input.carrier} at ${input.capturedAt}: ${input.label ?? 'no label'}`;
  return encode({ data: raster.data, width: SCREEN_WIDTH, height: SCREEN_HEIGHT, comments: [caption] }, 90).data;
}
