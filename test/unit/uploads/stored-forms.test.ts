import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lambdas/uploads/csv';
import { planUpload } from '../../../lambdas/uploads/plan-upload';
import { classifyKey, parseResults, ResultTable, rowResults, serializeResults, cellResult } from '../../../lambdas/uploads/results';
import { isWorkV1, layoutOf, readFirstCells, readWorkRows, serializeWork, storedLayoutOf, storedRowsOf } from '../../../lambdas/uploads/work-file';
import { layoutIndexOf, readLayoutIndex } from '../../../lambdas/uploads/layout-index';
import { BLANK, cellItemsOf, INVALID, numberItems, parseCellItems, serializeCellItems } from '../../../lambdas/uploads/pipeline/cell-items';
import { byteSpans } from '../../../lambdas/uploads/byte-offsets';
import { storedIndexOf } from '../../support/layout-index';
import { buildProcessedCsv, writeProcessedBytes } from '../../../lambdas/uploads/processed-file';
import type { AnswerIntent } from '../../../lambdas/classification';

// Issue 15: the compact stored forms (work file and layout, cell → item index, result table)
// give back exactly what the row objects they replace held, and the forms stored before them
// (work files v1 and v2, results of RowResult objects) are still read.

const CSV = [
  'id,first,last,mobile,home',
  '1,Ada,Lovelace,(212) 555-0143,',
  '2,Zoë,"Smith, Jr",212.555.0143,n/a',
  '3,Ada,Lovelace,+1 646 555 0100,(212) 555-0143',
  '4,,,(415) 555-0101,415-555-0101',
  '5,Ada,Lovelace,,',
].join('\r\n');

function planned() {
  const parsed = parseCsv(CSV);
  const [header, ...rows] = parsed.records;
  const plan = planUpload(header!.fields, rows.map((r) => r.fields), { phoneColumns: ['mobile', 'home'], firstNameColumn: 'first', lastNameColumn: 'last' }, { minimum: 0 });
  return { plan, layout: layoutOf(parsed), firstCells: rows.map((r) => r.fields[0]!) };
}

/** What prepare used to compute: distinct keys in file order. */
function oldDistinctKeys(rows: ReturnType<typeof planned>['plan']['rows'], identity: boolean): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const n of row.numbers) if (n) seen.add(classifyKey(n, row.name, identity));
  return [...seen];
}

describe('stored forms of an upload', () => {
  it('work file v3 and layout give back the rows and spans; v1 and v2 files are still read', () => {
    const { plan, layout, firstCells } = planned();
    const stored = serializeWork({ rows: plan.rows, layout, firstCells }, 2);
    const work = Buffer.from(stored.work);
    expect(JSON.parse(work.toString('latin1', 0, work.indexOf(10)))).toMatchObject({ v: 3, rows: 5, columns: 2 });
    expect(readWorkRows(work)).toEqual(storedRowsOf(plan.rows, 2));
    expect(JSON.parse(stored.layout.toString())).toEqual(storedLayoutOf(layout));
    expect(readFirstCells(work)).toEqual(firstCells);
    expect(isWorkV1(work)).toBe(false);
    const withoutFirstCells = Buffer.from(serializeWork({ rows: plan.rows, layout }, 2).work);
    expect(readWorkRows(withoutFirstCells)).toEqual(storedRowsOf(plan.rows, 2));
    expect(readFirstCells(withoutFirstCells)).toBeUndefined();
    const { numbers, names } = storedRowsOf(plan.rows, 2);
    const v2 = Buffer.from([JSON.stringify({ v: 2 }), JSON.stringify(numbers), JSON.stringify(names), JSON.stringify(firstCells)].join('\n'));
    expect(readWorkRows(v2)).toEqual(storedRowsOf(plan.rows, 2));
    expect(readFirstCells(v2)).toEqual(firstCells);
    const v1 = Buffer.from(JSON.stringify({ v: 1, ...storedLayoutOf(layout), ...storedRowsOf(plan.rows, 2), firstCells }));
    expect(readWorkRows(v1)).toEqual(storedRowsOf(plan.rows, 2));
    expect(isWorkV1(v1)).toBe(true);
    expect(readLayoutIndex(v1)).toEqual(layoutIndexOf(storedLayoutOf(layout)));
    expect(readFirstCells(v1)).toEqual(firstCells);
    expect(() => readWorkRows(Buffer.from('{"v":4}\n[]\nnull\nnull'))).toThrow(/version 4/);
  });

  it('items are numbered as the old distinct list was (a number with two names is two items with identity, one without)', () => {
    const { plan } = planned();
    for (const identity of [true, false]) {
      const items = numberItems(storedRowsOf(plan.rows, 2), 2, identity);
      const keys: string[] = [];
      let next = items.next();
      while (!next.done) {
        keys.push(next.value.key);
        next = items.next();
      }
      expect(keys).toEqual(oldDistinctKeys(plan.rows, identity));
      const index = next.value;
      // Each cell points at the item of its own key.
      plan.rows.forEach((row, r) =>
        row.numbers.forEach((n, c) => {
          const cell = index.cells[r * 2 + c]!;
          if (n === '') expect(cell).toBe(BLANK);
          else if (n === null) expect(cell).toBe(INVALID);
          else expect(keys[cell]).toBe(classifyKey(n, row.name, identity));
        }),
      );
      expect(parseCellItems(serializeCellItems(index))).toEqual(cellItemsOf(storedRowsOf(plan.rows, 2), 2, identity));
    }
    expect(oldDistinctKeys(plan.rows, true).length).toBeGreaterThan(oldDistinctKeys(plan.rows, false).length);
  });

  it('the result table holds what rowResults computes, and a results file of RowResult objects is still read', () => {
    const { plan } = planned();
    const answer = (key: string) => ({ answerIntent: (key.includes('0143') ? 'Likely Answer' : 'Non-Mobile') as AnswerIntent, identity: key.includes('Ada') ? ('Likely Match' as never) : null });
    const rows = rowResults(plan.rows, true, answer);
    const table = new ResultTable(2, true, new Uint8Array(plan.rows.length * 2));
    plan.rows.forEach((row, r) => row.numbers.forEach((n, c) => (table.cells[r * 2 + c] = table.codeOf(cellResult(n, Boolean(row.name), n ? answer(classifyKey(n, row.name, true)) : undefined, true)))));
    const read = parseResults(Buffer.from(serializeResults(table)));
    expect(Array.from({ length: read.length }, (_, i) => read.at(i))).toEqual(rows);
    expect(parseResults(Buffer.from(JSON.stringify({ rows })))).toEqual(rows);
  });

  it('byte offsets of a non-ASCII file (2-, 3- and 4-byte characters, BOM skipped) point at the same records', () => {
    const text = 'name,phone\nZoë,1\n"€, 😀",2\nplain,3\n';
    const parsed = parseCsv(text);
    const layout = storedIndexOf(layoutOf(parsed));
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const spans = byteSpans(bytes, 3, layout);
    parsed.records.slice(1).forEach((r, i) => expect(bytes.toString('utf8', spans.start[i], spans.end[i])).toBe(text.slice(r.start, r.end)));
    const results = [0, 1, 2].map(() => ({ cells: [{ status: 'Likely Answer', answerIntent: 'Likely Answer' as AnswerIntent, identity: null }], best: 'Likely Answer', bestIdentity: null }));
    expect(writeProcessedBytes(bytes, 3, { ...layout, bom: true }, ['phone'], false, results).toString('utf8')).toBe(buildProcessedCsv('\uFEFF' + text, ['phone'], false, results));
  });
});
