import { toApiCsv, type ImportChoice, type ImportFormat } from './import-format';
import { isWorkbook } from './workbook-bytes';

// What the console's import reads a file as (docs/console.md): an Excel workbook's first worksheet
// (import-xlsx.ts), else delimited text in whatever delimiter and encoding (import-format.ts); the
// result is the API's CSV in both cases, with what was detected and chosen.

export async function readImport(sent: Buffer, choice: ImportChoice = {}): Promise<{ csv: Buffer; format: ImportFormat }> {
  if (!isWorkbook(sent)) return toApiCsv(sent, choice);
  // Loaded on the first workbook, not at a cold start: most uploads are text (docs/performance.md).
  const { xlsxToCsv } = await import('./import-xlsx');
  const { csv, sheet, formulasWithoutResult } = await xlsxToCsv(sent);
  // The sheet's CSV is UTF-8 and comma-separated; only the header question remains the person's.
  const read = toApiCsv(csv, { delimiter: ',', encoding: 'utf-8', header_row: choice.header_row });
  return { csv: read.csv, format: { ...read.format, converted: true, workbook: { sheet, formulas_without_result: formulasWithoutResult } } };
}
