import { InvalidInput } from '../platform/domain-errors';
import { CsvSyntaxError, parseCsv } from './csv';

// A stored or received CSV read whole: its text and its records, or the 400 a client is told. Its
// own module, apart from create-upload.ts, so that what reads an original again (finalize's
// layout of an upload created before layouts were stored, the console's import preview) does not
// carry create's planner, pricing and normalizing with it (docs/performance.md, "Cold imports,
// tenth step").

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a stored or received CSV into header and row fields (400 for what is not CSV). */
export function readCsv(bytes: Buffer) {
  const text = decodeCsv(bytes);
  try {
    return { text, ...parseCsv(text) };
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InvalidInput(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
}

function decodeCsv(bytes: Buffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidInput('The file is not valid UTF-8 text; save the CSV as UTF-8 and upload it again');
  }
}
