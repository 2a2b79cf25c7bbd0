import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import type { PrefixTableJson } from './nanp-prefix-table';
import { loadValidShapes, type ValidShapesJson } from './nanp-shapes';

// Writing the prefix table (nanp-prefix-table.ts) when the metadata is written (`npm run
// metadata:nanp`), and checking it in tests: the one place that asks libphonenumber-js for it.

/**
 * Asks libphonenumber-js (with `metadata`) for every deciding prefix, `digitsOf(npa)` its deciding
 * digits, and for every 7-digit number `shapes` (nanp-pattern-shapes.ts buildValidShapes) says can
 * be valid, in both forms scan-nanp.ts rule 7 reads.
 */
export function buildPrefixTable(metadata: MetadataJson & { version: number }, digitsOf: (npa: number) => number, shapes: ValidShapesJson): PrefixTableJson {
  const classIds = new Map<string, number>();
  const classes: PrefixTableJson['classes'] = [];
  const digits: number[] = [];
  const runs: string[] = [];
  const classOf = (input: string): number => {
    const parsed = parsePhoneNumberFromString(input, 'US', metadata);
    const valid = parsed?.isValid() ?? false;
    const answer: [boolean, string | null, string | null] = [valid, valid ? (parsed!.country ?? null) : null, valid ? (parsed!.getType() ?? null) : null];
    const key = JSON.stringify(answer);
    let id = classIds.get(key);
    if (id === undefined) {
      id = classes.push(answer) - 1;
      classIds.set(key, id);
    }
    return id;
  };
  for (let npa = 200; npa <= 999; npa++) {
    const k = digitsOf(npa);
    digits.push(k);
    const area: string[] = [];
    let prev = -1;
    let count = 0;
    const flush = () => area.push(count > 1 ? `${prev}*${count}` : String(prev));
    for (let i = 0; i < 10 ** (k - 3); i++) {
      // The digits after the prefix are free (nanp-metadata.ts): zeros stand for any.
      const id = classOf((String(npa) + (k > 3 ? String(i).padStart(k - 3, '0') : '')).padEnd(10, '0'));
      if (id === prev) count++;
      else {
        if (prev >= 0) flush();
        prev = id;
        count = 1;
      }
    }
    flush();
    runs.push(area.join(','));
  }
  // Every 7-digit number of a start, not only its prefixes: no metadata fact says which digits decide.
  const sevenDigit = loadValidShapes(shapes);
  const local: PrefixTableJson['local'] = {};
  for (let start = 200; start <= 999; start++) {
    if (sevenDigit[7 * 1000 + start] !== 1) continue;
    const ids = new Set<number>();
    for (let rest = 0; rest < 10_000; rest++) {
      const national = String(start) + String(rest).padStart(4, '0');
      ids.add(classOf(national)).add(classOf(`+1${national}`));
    }
    // Where the answers differ, the normalizer leaves those numbers to libphonenumber-js.
    if (ids.size === 1) local[String(start)] = [...ids][0]!;
  }
  return { version: metadata.version, classes, digits, runs, local };
}
