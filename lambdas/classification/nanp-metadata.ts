import metadata from './nanp-metadata.max.json';

// Facts about the NANP (+1) metadata that make prefix memoization exact. Everything here is
// derived from the metadata itself at load time, so a metadata update cannot silently break it;
// test/unit/classification checks the assumptions stated below.

interface Metadata {
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, unknown[]>;
}
const meta = metadata as unknown as Metadata;

// Marked pure: a property read at a module's top level is kept by esbuild in every bundle that
// reaches this module (classification/index.ts re-exports it), and with it the 15 KB metadata.
export const NANP_REGIONS: readonly string[] = /* @__PURE__ */ (() => meta.country_calling_codes['1'] ?? [])();

/** The general pattern and the per-type patterns of a region. */
export function regionPatterns(region: string): { general: string; types: string[] } {
  const country = meta.countries[region]!;
  const types = ((country[11] as ([string] | 0)[] | undefined) ?? []).map((t) => (t ? t[0] : '')).filter(Boolean);
  return { general: country[2] as string, types };
}

export function possibleLengths(region: string): number[] {
  return meta.countries[region]![3] as number[];
}

/** Top-level alternatives of a pattern (splits on | outside groups and classes). */
export function topLevelAlternatives(pattern: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '|' && depth === 0) {
      out.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  out.push(pattern.slice(start));
  return out;
}

/** How many trailing digits an alternative leaves free (its final \d{n}), 0 if none. */
export function freeTail(alternative: string): number {
  const m = /\\d\{(\d+)(,\d*)?\}$/.exec(alternative);
  return m ? Number(m[1]) : 0;
}

/**
 * The literal digits an alternative can start with: its own leading digits, or those of each
 * branch of a leading (?:…) group. [''] when it starts with anything else (applies to every number).
 */
export function literalStarts(alternative: string): string[] {
  const digits = /^\d+/.exec(alternative);
  if (digits) return [digits[0]];
  if (!alternative.startsWith('(?:')) return [''];
  let depth = 0;
  for (let i = 0; i < alternative.length; i++) {
    const c = alternative[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      depth--;
      if (depth === 0) {
        const starts = topLevelAlternatives(alternative.slice(3, i)).flatMap(literalStarts);
        return starts.includes('') ? [''] : starts;
      }
    }
  }
  return [''];
}

// Derived on first use, not at module load: the 800 area codes × every pattern alternative took
// ~20 ms of each cold start of a function that carries the normalizer (most requests of the
// uploads and contacts APIs never normalize a number).
let alternatives: { literals: string[]; decides: number }[] | null = null;
function patternAlternatives(): { literals: string[]; decides: number }[] {
  alternatives ??= NANP_REGIONS.flatMap((region) => {
    const { general, types } = regionPatterns(region);
    return [general, ...types].flatMap((p) => topLevelAlternatives(p)).map((alt) => ({ literals: literalStarts(alt), decides: 10 - freeTail(alt) }));
  });
  return alternatives;
}

/**
 * How many leading digits of a 10-digit national number with this area code decide validity,
 * region and type: the most any pattern alternative that can apply to the area code reads before
 * its free tail. An alternative applies unless its literal leading digits rule the area code out.
 */
export function decidingDigits(areaCode: string): number {
  let most = 3;
  for (const { literals, decides } of patternAlternatives()) {
    const applies = literals.some((literal) => {
      const k = Math.min(3, literal.length);
      return literal.slice(0, k) === areaCode.slice(0, k);
    });
    if (applies) most = Math.max(most, decides);
  }
  return Math.min(10, most);
}

// Indexed by the area code as a number (the fast path reads digits, not strings): 0 below 200.
// Filled on first use, not at module load: most cold starts of a function carrying the
// normalizer never normalize (the uploads API's import spent ~20 ms here).
let decidingByArea: Uint8Array | null = null;

/** decidingDigits, computed for every area code [2-9]xx (as a number) on the first call; 10 for anything else. */
export const decidingDigitsOfArea = (npa: number): number => {
  if (!decidingByArea) {
    decidingByArea = new Uint8Array(1000);
    for (let n = 200; n <= 999; n++) decidingByArea[n] = decidingDigits(String(n));
  }
  return decidingByArea[npa] || 10;
};
export const decidingDigitsFor = (areaCode: string): number => (/^[2-9]\d\d$/.test(areaCode) ? decidingDigitsOfArea(Number(areaCode)) : 10);
