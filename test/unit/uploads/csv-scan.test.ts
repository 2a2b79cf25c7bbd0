import { describe, expect, it } from 'vitest';
import { CsvRecordReader, CsvSyntaxError, parseCsv, startsLikeFormula, type CsvRecord } from '../../../lambdas/uploads/csv';
import { rng } from '../../../bench/inputs';

// The reader's scan (csv.ts) finds where unquoted fields end with the engine's native search. The
// oracle is the character-by-character scan it replaced, kept here verbatim: on random texts made of
// the characters that matter to CSV, both must find the same records, offsets, line ends and
// refusals, whole and in pieces of any size.

type OracleRecord = Omit<CsvRecord, 'formula'>;

// prettier-ignore
function referenceScan(text: string, from: number, base: number, final: boolean, emit: (record: OracleRecord) => void): number {
  let i = from;
  const n = text.length;
  while (i < n) {
    const start = i;
    const fields: string[] = [];
    let eol = '';
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === 34 /* " */) {
        let j = i + 1;
        let out = '';
        let segment = j;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) {
            if (!final) return start;
            throw new Error(`Unterminated quoted field starting at character ${base + i}`);
          }
          if (text.charCodeAt(q + 1) === 34) {
            out += text.slice(segment, q + 1);
            j = q + 2;
            segment = j;
            continue;
          }
          // A closing quote as the text's last character may be the first of an escaped pair.
          if (!final && q + 1 >= n) return start;
          out += text.slice(segment, q);
          i = q + 1;
          break;
        }
        value = out;
        // Tolerate stray characters after a closing quote up to the delimiter, as most producers' readers do.
        while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') value += text[i++];
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 44 || c === 10 || c === 13) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      fields.push(value);
      if (i >= n) {
        if (!final) return start;
        break;
      }
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        if (i >= n) {
          if (!final) return start;
          fields.push('');
          break;
        }
        continue;
      }
      if (c === 13 && i + 1 >= n && !final) return start;
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        eol = '\r\n';
        i += 2;
      } else {
        eol = c === 13 ? '\r' : '\n';
        i++;
      }
      break;
    }
    const end = i - eol.length;
    // A blank line is not a record; `""` is (one empty field), as RFC 4180 and csv-parse read it.
    if (end > start) emit({ fields, start: base + start, end: base + end, eol });
  }
  return i;
}

function oracle(text: string): { records: CsvRecord[] } | { refused: true } {
  const records: CsvRecord[] = [];
  const bom = text.charCodeAt(0) === 0xfeff;
  try {
    referenceScan(text, bom ? 1 : 0, 0, true, (r) => records.push({ ...r, formula: r.fields.some(startsLikeFormula) }));
  } catch {
    return { refused: true };
  }
  return { records };
}

function whole(text: string): { records: CsvRecord[] } | { refused: true } {
  try {
    return { records: parseCsv(text).records };
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { refused: true };
    throw error;
  }
}

/**
 * The reader fed `text` in pieces of `size`; with `columns`, told after its first record to make
 * only those into strings (as create's planner tells it once the header is read): every record but
 * the first with its other fields ''.
 */
function inPieces(text: string, size: number, columns?: number[]): { records: CsvRecord[] } | { refused: true } {
  const records: CsvRecord[] = [];
  // The reader fills one record again for the next (csv.ts): a copy of each is kept.
  const reader = new CsvRecordReader((r) => {
    if (records.push({ ...r, fields: [...r.fields] }) === 1 && columns) reader.readOnly(columns);
  });
  try {
    for (let at = 0; at < text.length; at += size) reader.push(text.slice(at, at + size));
    reader.end();
  } catch (error) {
    if (error instanceof CsvSyntaxError) return { refused: true };
    throw error;
  }
  return { records };
}

/** The oracle's records with the fields not at `columns` blanked, the first record whole. */
function blanked(expected: { records: CsvRecord[] } | { refused: true }, columns: number[]): { records: CsvRecord[] } | { refused: true } {
  if ('refused' in expected) return expected;
  return { records: expected.records.map((r, k) => (k === 0 ? r : { ...r, fields: r.fields.map((f, c) => (columns.includes(c) ? f : '')) })) };
}

const ALPHABET = ['a', 'b', '1', ' ', ',', ',', '"', '"', '\n', '\r', '\r\n', '=', '+', '-', '@', '\t', 'é', '🙂', '\uFEFF'];

describe('the CSV scan (csv.ts)', () => {
  it('reads random texts exactly as the character-by-character scan did, whole and in pieces', () => {
    const next = rng(30);
    let refused = 0;
    for (let t = 0; t < 4000; t++) {
      const length = next(40);
      let text = '';
      for (let k = 0; k < length; k++) text += ALPHABET[next(ALPHABET.length)];
      const expected = oracle(text);
      if ('refused' in expected) refused++;
      expect(whole(text), JSON.stringify(text)).toEqual(expected);
      for (const size of [1, 2, 5]) expect(inPieces(text, size), `${JSON.stringify(text)} in pieces of ${size}`).toEqual(expected);
      // Fields left unread still end where they did, count, and say whether the record holds a formula.
      const columns = [[], [0], [1], [0, 2], [1, 3, 4]][t % 5]!;
      for (const size of [1, 3, 64]) expect(inPieces(text, size, columns), `${JSON.stringify(text)} reading ${columns} in pieces of ${size}`).toEqual(blanked(expected, columns));
    }
    // Both outcomes were met many times: the comparison is not of refusals alone, nor of none.
    expect(refused).toBeGreaterThan(200);
    expect(refused).toBeLessThan(3800);
  });

  it('reads long random texts the same in pieces of the sizes create reads, records spanning pieces', () => {
    // Texts of random records, some with quoted fields of thousands of characters, read in pieces
    // from 1,000 characters to create's 64 KiB: records cut anywhere, and records spanning many
    // pieces after records the held text completed.
    const next = rng(31);
    let refused = 0;
    for (let t = 0; t < 60; t++) {
      let text = '';
      while (text.length < 20_000) {
        let record = '';
        for (let k = next(30); k > 0; k--) record += ALPHABET[next(ALPHABET.length)];
        if (next(10) === 0) record += `,"${'q,\n'.repeat(next(1500))}"`;
        text += record + ['\n', '\r\n', '\r'][next(3)];
      }
      const expected = oracle(text);
      if ('refused' in expected) refused++;
      for (const size of [1000, 1025, 1500, 4096, 65_536]) expect(inPieces(text, size), `text ${t} in pieces of ${size}`).toEqual(expected);
      expect(inPieces(text, 1500, [0, 2]), `text ${t} reading 0 and 2`).toEqual(blanked(expected, [0, 2]));
    }
    // Both outcomes were met: the comparison is not of refusals alone, nor of none.
    expect(refused).toBeGreaterThan(3);
    expect(refused).toBeLessThan(57);
  });

  it('reads long realistic rows the same way (fields far longer than the distance to the next delimiter)', () => {
    const next = rng(7);
    const rows: string[] = [];
    for (let r = 0; r < 3000; r++) {
      const cells = Array.from({ length: 1 + next(8) }, () => {
        const word = 'x'.repeat(next(30));
        const pick = next(100) / 100;
        return pick < 0.2 ? `"${word},${word}""q"""` : pick < 0.3 ? `=${word}` : pick < 0.35 ? '' : word;
      });
      rows.push(cells.join(','));
    }
    // A line of one empty cell is blank: not a record.
    const records = rows.filter(Boolean).length;
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = rows.join(eol) + (eol === '\r' ? '' : eol);
      const expected = oracle(text);
      expect('records' in expected && expected.records.length).toBe(records);
      expect(whole(text)).toEqual(expected);
      for (const size of [3, 4096]) expect(inPieces(text, size)).toEqual(expected);
      for (const columns of [[0], [2, 5]]) expect(inPieces(text, 4096, columns)).toEqual(blanked(expected, columns));
    }
  });
});
