import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import type { PrefixTableJson } from './nanp-prefix-table';

// Writing the prefix table (nanp-prefix-table.ts) when the metadata is written (`npm run
// metadata:nanp`), and checking it in tests: the one place that asks libphonenumber-js for it.

/** Asks libphonenumber-js (with `metadata`) for every deciding prefix; `digitsOf(npa)`: its deciding digits. */
export function buildPrefixTable(metadata: MetadataJson & { version: number }, digitsOf: (npa: number) => number): PrefixTableJson {
  const classIds = new Map<string, number>();
  const classes: PrefixTableJson['classes'] = [];
  const digits: number[] = [];
  const runs: string[] = [];
  for (let npa = 200; npa <= 999; npa++) {
    const k = digitsOf(npa);
    digits.push(k);
    const area: string[] = [];
    let prev = -1;
    let count = 0;
    const flush = () => area.push(count > 1 ? `${prev}*${count}` : String(prev));
    for (let i = 0; i < 10 ** (k - 3); i++) {
      // The digits after the prefix are free (nanp-metadata.ts): zeros stand for any.
      const national = (String(npa) + (k > 3 ? String(i).padStart(k - 3, '0') : '')).padEnd(10, '0');
      const parsed = parsePhoneNumberFromString(national, 'US', metadata);
      const valid = parsed?.isValid() ?? false;
      const answer: [boolean, string | null, string | null] = [valid, valid ? (parsed!.country ?? null) : null, valid ? (parsed!.getType() ?? null) : null];
      const key = JSON.stringify(answer);
      let id = classIds.get(key);
      if (id === undefined) {
        id = classes.push(answer) - 1;
        classIds.set(key, id);
      }
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
  return { version: metadata.version, classes, digits, runs };
}
