import { analyzeWithLibphonenumber } from '../lambdas/classification/normalize';

// Realistic inputs for the bench: every area code in service in the US and Canada, the shapes
// customer lists usually hold, and ~7% odd ones (extensions written out, dots, letters,
// country-code variants, brackets). Deterministic: the same seed gives the same inputs.

export function rng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 0x1_0000_0000) * n);
  };
}

let inService: string[] | null = null;

/** Area codes libphonenumber-js (max metadata) accepts as US or CA for some common exchange. */
export function areaCodesInService(): string[] {
  if (inService) return inService;
  const found: string[] = [];
  for (let npa = 200; npa <= 999; npa++) {
    for (const nxx of ['234', '345', '456', '567', '678', '789', '820', '925']) {
      const a = analyzeWithLibphonenumber(`${npa}${nxx}4567`);
      if (a.valid && (a.region === 'US' || a.region === 'CA')) {
        found.push(String(npa));
        break;
      }
    }
  }
  inService = found;
  return found;
}

const VANITY = ['CALL', 'HELP', 'SHOP', 'CASH', 'TAXI', 'FOOD', 'LAWN', 'CARS'];

/** A usual shape of a 10-digit number. */
export function usualShape(npa: string, nxx: string, line: string, pick: number): string {
  switch (pick % 9) {
    case 0: return `(${npa}) ${nxx}-${line}`;
    case 1: return `${npa}-${nxx}-${line}`;
    case 2: return `${npa}${nxx}${line}`;
    case 3: return `+1${npa}${nxx}${line}`;
    case 4: return `+1 ${npa} ${nxx} ${line}`;
    case 5: return `1-${npa}-${nxx}-${line}`;
    case 6: return `${npa}.${nxx}.${line}`;
    case 7: return `(${npa})${nxx}-${line}`;
    default: return `1 (${npa}) ${nxx}-${line}`;
  }
}

/** An odd but still meaningful shape of the same number. */
export function oddShape(npa: string, nxx: string, line: string, pick: number, r: (n: number) => number): string {
  const ext = String(1 + r(9999));
  switch (pick % 12) {
    case 0: return `${npa}-${nxx}-${line} ext. ${ext}`;
    case 1: return `(${npa}) ${nxx}-${line} x${ext}`;
    case 2: return `${npa}.${nxx}.${line} extension ${ext}`;
    case 3: return `+1.${npa}.${nxx}.${line}`;
    case 4: return `001 ${npa} ${nxx} ${line}`;
    case 5: return `+1 (${npa}) ${nxx}.${line}`;
    case 6: return `1-${npa}-${nxx}-${VANITY[r(VANITY.length)]}`;
    case 7: return `tel:+1-${npa}-${nxx}-${line}`;
    case 8: return `${npa}/${nxx}-${line}`;
    case 9: return `[${npa}] ${nxx} ${line}`;
    case 10: return `+1 ${npa}-${nxx}-${line} #${ext}`;
    default: return `${npa} ${nxx} ${line} (mobile)`;
  }
}

export interface PhoneInput {
  raw: string;
  odd: boolean;
}

/** `count` inputs: random exchanges and lines over every area code in service, ~7% odd shapes. */
export function realisticInputs(count: number, seed: number): PhoneInput[] {
  const r = rng(seed);
  const areas = areaCodesInService();
  const out: PhoneInput[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const npa = areas[r(areas.length)]!;
    const nxx = String(200 + r(800));
    const line = String(r(10_000)).padStart(4, '0');
    const odd = r(100) < 7;
    out[i] = { raw: odd ? oddShape(npa, nxx, line, r(1000), r) : usualShape(npa, nxx, line, r(1000)), odd };
  }
  return out;
}
