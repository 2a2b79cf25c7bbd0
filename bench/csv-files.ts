import { analyze } from '../lambdas/classification/normalize';
import { areaCodesInService, oddShape, rng, usualShape } from './inputs';

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Élodie', 'Wei', 'Aarav', 'Sofía', "O'Neil", 'Zoë'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Tremblay', 'Nguyen', 'Roy', 'Côté', 'Smith-Jones', 'van der Berg'];

/** Distinct numbers valid for US/CA, each written in a usual shape or (~7%) an odd one that still reads as valid. */
function numberSource(seed: number): () => string {
  const r = rng(seed);
  const areas = areaCodesInService();
  const seen = new Set<string>();
  return () => {
    for (;;) {
      const npa = areas[r(areas.length)]!;
      const nxx = String(200 + r(800));
      const line = String(r(10_000)).padStart(4, '0');
      const national = npa + nxx + line;
      if (seen.has(national)) continue;
      const plain = analyze(national);
      if (!plain.valid || (plain.region !== 'US' && plain.region !== 'CA')) continue;
      seen.add(national);
      if (r(100) < 7) {
        const odd = oddShape(npa, nxx, line, r(1000), r);
        const a = analyze(odd);
        if (a.valid && a.e164 === `+1${national}`) return odd;
      }
      return usualShape(npa, nxx, line, r(1000));
    }
  };
}

const quoted = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** `rows` contacts, one valid distinct number each, with first, last and company names, some notes quoted. */
export function singleColumnCsv(rows: number, seed = 1): string {
  const r = rng(seed);
  const next = numberSource(seed + 1);
  const lines = ['id,first_name,last_name,phone,email,company,notes'];
  for (let i = 0; i < rows; i++) {
    const first = FIRST[r(FIRST.length)]!;
    const last = LAST[r(LAST.length)]!;
    const notes = r(5) === 0 ? 'said "call me, after 5"' : '';
    lines.push([String(i + 1), first, last, next(), `${first.toLowerCase()}.${i}@example.com`, quoted(`${last} & Sons, Inc`), quoted(notes)].join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** `rows` contacts with three phone columns (some blank, ~2% junk) and a full name. */
export function multiColumnCsv(rows: number, seed = 2): string {
  const r = rng(seed);
  const next = numberSource(seed + 1);
  const lines = ['id,full_name,mobile,home,work,email'];
  const cell = () => {
    const x = r(100);
    return x < 15 ? '' : x < 17 ? 'n/a' : next();
  };
  for (let i = 0; i < rows; i++) {
    const name = `${FIRST[r(FIRST.length)]} ${LAST[r(LAST.length)]}`;
    lines.push([String(i + 1), quoted(name), cell(), cell(), cell(), `c${i}@example.com`].join(','));
  }
  return lines.join('\n') + '\n';
}
