import metadata from './nanp-metadata.max.json';

// Facts about the NANP (+1) metadata that make prefix memoization exact. Everything here is
// derived from the metadata itself at load time, so a metadata update cannot silently break it;
// test/unit/classification checks the assumptions stated below.

interface Metadata {
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, unknown[]>;
}
const meta = metadata as unknown as Metadata;

export const NANP_REGIONS: readonly string[] = meta.country_calling_codes['1'] ?? [];

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

/**
 * What strings a pattern of the metadata can match, as a map from length to the prefixes such a
 * string can start with (its first `k` digits, or all of them when shorter). An over-approximation:
 * every string the pattern matches has a length in the map and a prefix in that length's set. Reads
 * the subset of regular expressions the metadata uses (digits, \d, [classes], (?:groups) and
 * (groups), |, and the quantifiers ?, {n} and {n,m}); throws on anything else, so a metadata update
 * that brings new syntax fails loudly instead of reading wrong.
 */
export function patternShapes(pattern: string, k = 3): Map<number, Set<string>> {
  type Shapes = Map<number, Set<string>>;
  let i = 0;
  const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
  const add = (out: Shapes, length: number, prefix: string) => {
    let set = out.get(length);
    if (!set) out.set(length, (set = new Set()));
    set.add(prefix);
  };
  const concat = (a: Shapes, b: Shapes): Shapes => {
    const out: Shapes = new Map();
    for (const [la, pa] of a) {
      for (const [lb, pb] of b) {
        if (la >= k) for (const x of pa) add(out, la + lb, x);
        else for (const x of pa) for (const y of pb) add(out, la + lb, (x + y).slice(0, k));
      }
    }
    return out;
  };
  const union = (a: Shapes, b: Shapes): Shapes => {
    const out: Shapes = new Map([...a].map(([l, set]) => [l, new Set(set)]));
    for (const [l, set] of b) for (const x of set) add(out, l, x);
    return out;
  };
  const one = (digits: string[]): Shapes => new Map([[1, new Set(digits)]]);
  const empty = (): Shapes => new Map([[0, new Set([''])]]);
  const atom = (): Shapes => {
    const c = pattern[i]!;
    if (c >= '0' && c <= '9') {
      i++;
      return one([c]);
    }
    if (pattern.startsWith('\\d', i)) {
      i += 2;
      return one(DIGITS);
    }
    if (c === '[') {
      const close = pattern.indexOf(']', i);
      const body = pattern.slice(i + 1, close);
      if (close < 0 || !/^(\d(-\d)?)+$/.test(body)) throw new Error(`pattern ${pattern}: class ${body} not read`);
      const digits: string[] = [];
      for (const [, from, to] of body.matchAll(/(\d)(?:-(\d))?/g)) for (let d = Number(from); d <= Number(to ?? from); d++) digits.push(String(d));
      i = close + 1;
      return one(digits);
    }
    if (c === '(') {
      i += pattern.startsWith('(?:', i) ? 3 : 1;
      const inner = alternation();
      if (pattern[i] !== ')') throw new Error(`pattern ${pattern}: group not closed at ${i}`);
      i++;
      return inner;
    }
    throw new Error(`pattern ${pattern}: '${c}' at ${i} not read`);
  };
  const quantified = (): Shapes => {
    const a = atom();
    if (pattern[i] === '?') {
      i++;
      return union(a, empty());
    }
    const q = /^\{(\d+)(?:,(\d+))?\}/.exec(pattern.slice(i));
    if (!q) return a;
    i += q[0].length;
    const [min, max] = [Number(q[1]), Number(q[2] ?? q[1])];
    let out: Shapes = new Map();
    let power = empty();
    for (let n = 0; n <= max; n++) {
      if (n >= min) out = union(out, power);
      power = concat(power, a);
    }
    return out;
  };
  const sequence = (): Shapes => {
    let out = empty();
    while (i < pattern.length && pattern[i] !== '|' && pattern[i] !== ')') out = concat(out, quantified());
    return out;
  };
  const alternation = (): Shapes => {
    let out = sequence();
    while (pattern[i] === '|') {
      i++;
      out = union(out, sequence());
    }
    return out;
  };
  const shapes = alternation();
  if (i !== pattern.length) throw new Error(`pattern ${pattern}: stopped at ${i}`);
  return shapes;
}

/** The (length, prefix) pairs of `a` that `b` has too. */
function intersect(a: Map<number, Set<string>>, b: Map<number, Set<string>>): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const [l, set] of a) {
    const other = b.get(l);
    if (other) out.set(l, new Set([...set].filter((x) => other.has(x))));
  }
  return out;
}

export const MAX_NATIONAL = 17;

/** Per national number length, the first three digits a valid +1 number can have, as "from-to" ranges (a shorter number's digits padded with zeros). */
export interface ValidShapesJson {
  version: number;
  lengths: Record<string, string>;
}

/**
 * Where a valid +1 number can be, by length and first three digits: isValid() needs the region
 * libphonenumber-js picks (a NANP region) to match the number with its general pattern and with
 * one of its type patterns (getNumberType), so whatever no NANP region's general pattern and type
 * patterns both can match is not valid. Takes ~0.3 s: `npm run metadata:nanp` stores it
 * (nanp-shapes.json, read by nanp-shapes.ts).
 */
export function buildValidShapes(): ValidShapesJson {
  const valid = new Map<number, Set<number>>();
  for (const region of NANP_REGIONS) {
    const { general, types } = regionPatterns(region);
    const typed = new Map<number, Set<string>>();
    for (const type of types) for (const [l, set] of patternShapes(type)) typed.set(l, new Set([...(typed.get(l) ?? []), ...set]));
    for (const [l, set] of intersect(patternShapes(general), typed)) {
      if (l < 1 || l > MAX_NATIONAL || set.size === 0) continue;
      const prefixes = valid.get(l) ?? new Set<number>();
      for (const x of set) prefixes.add(Number(x.padEnd(3, '0')));
      valid.set(l, prefixes);
    }
  }
  const lengths: Record<string, string> = {};
  for (const [l, set] of [...valid].sort((a, b) => a[0] - b[0])) {
    const sorted = [...set].sort((a, b) => a - b);
    const ranges: string[] = [];
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
      ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
      i = j + 1;
    }
    lengths[String(l)] = ranges.join(',');
  }
  return { version: (metadata as unknown as { version: number }).version, lengths };
}
