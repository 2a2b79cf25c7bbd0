// libphonenumber-js's answer (validity, region, type) for every deciding prefix of every area code
// 2-9xx (nanp-metadata.ts: the first 4 to 7 digits decide; 155,690 prefixes in all), asked once
// when the metadata is written (`npm run metadata:nanp`) and stored run-length encoded
// (nanp-prefixes.json, ~12 KB). Filling a memo at run time instead asked libphonenumber-js (~25 µs)
// for each prefix first met: ~57,000 times in 1,000,000 realistic inputs, more than all the other
// work of the normalizer. test/unit/classification/nanp-prefix-table.test.ts checks the stored
// table against libphonenumber-js. Building it (nanp-prefix-table-build.ts) is apart, so that
// reading it does not bring libphonenumber-js into a bundle.

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
}

export interface PrefixTable {
  classes: PrefixClass[];
  /** The class index of a 10-digit national number (an integer, area code 2-9xx). */
  classOf(national: number): number;
}

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7];

/** The stored table, expanded into one byte per prefix (~156 KB) with an offset per area code. */
export function loadPrefixTable(json: PrefixTableJson): PrefixTable {
  const base = new Int32Array(1000);
  const divisor = new Float64Array(1000);
  let total = 0;
  for (let npa = 200; npa <= 999; npa++) {
    const k = json.digits[npa - 200]!;
    if (k < 3 || k > 10) throw new Error(`nanp-prefixes.json: area code ${npa} has ${k} deciding digits`);
    base[npa] = total;
    divisor[npa] = POW10[10 - k] ?? 1;
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
  return {
    classes,
    classOf: (national) => {
      const npa = Math.floor(national / 1e7);
      return table[base[npa]! + Math.floor((national - npa * 1e7) / divisor[npa]!)]!;
    },
  };
}
