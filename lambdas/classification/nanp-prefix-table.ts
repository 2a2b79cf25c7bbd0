// libphonenumber-js's answer (validity, region, type) for every deciding prefix of every area code
// 2-9xx (nanp-metadata.ts: the first 4 to 7 digits decide; 155,690 prefixes in all), asked once
// when the metadata is written (`npm run metadata:nanp`) and stored run-length encoded
// (nanp-prefixes.json, ~12 KB). Filling a memo at run time instead asked libphonenumber-js (~25 µs)
// for each prefix first met: ~57,000 times in 1,000,000 realistic inputs, more than all the other
// work of the normalizer. test/unit/classification/nanp-prefix-table.test.ts checks the stored
// table against libphonenumber-js. Building it (nanp-prefix-table-build.ts) is apart, so that
// reading it does not bring libphonenumber-js into a bundle. Beside it, the answer for the 7-digit
// national numbers that can be valid (scan-nanp.ts rule 7: 310…, Canada's UAN), by first three
// digits, where all 10,000 of a start answer alike.

export interface PrefixClass {
  valid: boolean;
  region: string | null;
  type: string | null;
}

export interface PrefixTableJson {
  /** The metadata version the table was asked of. */
  version: number;
  /** The distinct answers: [valid, region, type]. */
  classes: [boolean, string | null, string | null][];
  /** Per area code from 200 to 999: its deciding digits. */
  digits: number[];
  /** Per area code from 200 to 999: its prefixes' classes in order, as "class" or "class*count", comma-separated. */
  runs: string[];
  /**
   * 7-digit national numbers (scan-nanp.ts rule 7), by their first three digits: the class of every
   * such number, where libphonenumber-js answers all 10,000 alike, written and after '+1'.
   */
  local: Record<string, number>;
}

export interface PrefixTable {
  classes: PrefixClass[];
  /** The class index of a 10-digit national number (an integer, area code 2-9xx). */
  classOf(national: number): number;
  /** The class index of the 10-digit national number (area code 2-9xx) whose digits, as values 0-9, are digits[at..at + 9]. */
  classOfDigits(digits: Uint8Array, at: number): number;
  /** The class index of the 7-digit national number whose digits are digits[at..at + 6], or -1 where the table has none. */
  classOfLocal(digits: Uint8Array, at: number): number;
}

/** The stored table, expanded into one byte per prefix (~156 KB) with an offset per area code. */
export function loadPrefixTable(json: PrefixTableJson): PrefixTable {
  const base = new Int32Array(1000);
  const deciding = new Uint8Array(1000);
  let total = 0;
  for (let npa = 200; npa <= 999; npa++) {
    const k = json.digits[npa - 200]!;
    if (k < 3 || k > 10) throw new Error(`nanp-prefixes.json: area code ${npa} has ${k} deciding digits`);
    base[npa] = total;
    deciding[npa] = k;
    total += 10 ** (k - 3);
  }
  const table = new Uint8Array(total);
  let at = 0;
  for (let npa = 200; npa <= 999; npa++) {
    for (const run of json.runs[npa - 200]!.split(',')) {
      const [id, count] = run.split('*');
      table.fill(Number(id), at, at + Number(count ?? 1));
      at += Number(count ?? 1);
    }
    if (at !== (npa === 999 ? total : base[npa + 1])) throw new Error(`nanp-prefixes.json: area code ${npa} has the wrong number of prefixes`);
  }
  const classes = json.classes.map(([valid, region, type]) => ({ valid, region, type }));
  // Digit by digit, in small integers only: until the JIT has optimized the caller, dividing a
  // 10-digit number allocated a heap number at each step (docs/performance.md, "The cold normalizer").
  const classOfDigits = (digits: Uint8Array, at: number): number => {
    const npa = digits[at]! * 100 + digits[at + 1]! * 10 + digits[at + 2]!;
    const k = at + deciding[npa]!;
    let prefix = 0;
    for (let i = at + 3; i < k; i++) prefix = prefix * 10 + digits[i]!;
    return table[base[npa]! + prefix]!;
  };
  const local = new Int16Array(1000).fill(-1);
  for (const [start, id] of Object.entries(json.local)) {
    if (!/^[2-9]\d\d$/.test(start) || !json.classes[id]) throw new Error(`nanp-prefixes.json: 7-digit numbers starting ${start} have class ${id}`);
    local[Number(start)] = id;
  }
  const national = new Uint8Array(10);
  return {
    classes,
    classOfDigits,
    classOfLocal: (digits, at) => local[digits[at]! * 100 + digits[at + 1]! * 10 + digits[at + 2]!]!,
    classOf: (n) => {
      for (let i = 9; i >= 0; i--) {
        const rest = Math.floor(n / 10);
        national[i] = n - rest * 10;
        n = rest;
      }
      return classOfDigits(national, 0);
    },
  };
}
