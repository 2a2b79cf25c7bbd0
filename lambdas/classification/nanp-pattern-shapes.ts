import metadata from './nanp-metadata.max.json';
import { NANP_REGIONS, regionPatterns } from './nanp-metadata';
import { MAX_NATIONAL, type ValidShapesJson } from './nanp-shapes';

// Where a valid +1 number can be, read from the metadata's patterns: scan-nanp.ts refuses, without
// libphonenumber-js, an input of which no national number it can make is in such a place.

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
