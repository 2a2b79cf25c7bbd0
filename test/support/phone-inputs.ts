/** Deterministic generator of phone-number inputs in many shapes, for differential tests and benches. */
/**
 * `mix: 'all'` spreads inputs evenly over every shape (for differential tests); `'upload'` is what
 * customer phone columns mostly hold: 99% common formats (some with extensions), 1% anything else
 * (stray text, foreign numbers, truncated or random digits).
 */
export function* phoneInputs(count: number, seed = 42, mix: 'all' | 'upload' = 'all'): Generator<string> {
  let state = seed >>> 0;
  const rand = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const areas = ['212', '415', '646', '800', '888', '900', '416', '604', '787', '671', '340', '876', '658', '246', '510', '555', '311', '123', '011', '500', '522', '983', '684'];
  const digits = (n: number) => Array.from({ length: n }, () => rand(10)).join('');
  // Populated US and Canadian area codes, for the upload-like mix.
  const populated = ['201', '202', '212', '213', '214', '215', '301', '305', '310', '312', '313', '347', '404', '407', '408', '412', '415', '416', '469', '503', '504', '510', '512', '514', '602', '604', '614', '615', '617', '619', '646', '647', '702', '703', '704', '713', '718', '720', '727', '732', '773', '786', '804', '813', '818', '832', '858', '904', '905', '908', '917', '919', '929', '954', '972'];
  for (let i = 0; i < count; i++) {
    const npa = mix === 'upload' ? populated[rand(populated.length)]! : rand(3) === 0 ? String(200 + rand(800)) : areas[rand(areas.length)]!;
    const nxx = rand(10) === 0 ? digits(3) : String(200 + rand(800));
    const line = digits(4);
    const shape = mix === 'upload' && rand(100) < 99 ? [0, 1, 2, 3, 4, 5, 6, 10, 11, 13][rand(10)]! : rand(14);
    switch (shape) {
      case 0: yield `(${npa}) ${nxx}-${line}`; break;
      case 1: yield `+1 ${npa} ${nxx} ${line}`; break;
      case 2: yield `1-${npa}-${nxx}-${line}`; break;
      case 3: yield `${npa}.${nxx}.${line}`; break;
      case 4: yield `${npa}${nxx}${line}`; break;
      case 5: yield `+1${npa}${nxx}${line}`; break;
      case 6: yield `${npa}-${nxx}-${line} ext. ${digits(3)}`; break;
      case 7: yield `call ${npa} ${nxx} ${line} today`; break;
      case 8: yield `+44 20 ${digits(4)} ${digits(4)}`; break;
      case 9: yield digits(rand(12) + 1); break;
      case 10: yield ` (${npa})${nxx}-${line} `; break;
      case 11: yield `1 (${npa}) ${nxx} ${line}`; break;
      case 12: yield `${npa}-${nxx}-${line.slice(0, 3)}`; break;
      default: yield `+1-${npa}-${nxx}-${line}x${digits(2)}`;
    }
  }
}

/** A hundred distinct valid NANP numbers, a different hundred per `seed` (0-79). */
export const hundredNumbers = (seed = 0): string[] => Array.from({ length: 100 }, (_, i) => `+1212555${String(2000 + seed * 100 + i).padStart(4, '0')}`);
