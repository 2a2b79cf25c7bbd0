import { useState } from 'preact/hooks';
import { api } from '../api';
import type { Draft, ImportFormat } from '../types';
import { num } from '../format';

// How the console read the file (lambdas/console/import-format.ts): what was detected, a way to
// read it another way, the header question when the first row looks like a contact, and rows too
// few or too many, all before mapping.

const DELIMITER_NAMES: Record<ImportFormat['delimiter'], string> = { ',': 'Comma', ';': 'Semicolon', '\t': 'Tab', '|': 'Pipe' };
const ENCODING_NAMES: Record<ImportFormat['encoding'], string> = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16 LE', 'utf-16be': 'UTF-16 BE', 'windows-1252': 'Windows-1252' };

export function ImportFormatCard({ draft, onChange }: { draft: Draft; onChange: (d: Draft) => void }) {
  const f = draft.import;
  const [delimiter, setDelimiter] = useState(f?.delimiter ?? ',');
  const [encoding, setEncoding] = useState(f?.encoding ?? 'utf-8');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!f) return null;
  const changeable = ['pending_mapping', 'validation_failed', 'awaiting_confirmation'].includes(draft.status);

  async function reread(choice: Partial<Pick<ImportFormat, 'delimiter' | 'encoding' | 'header_row'>>) {
    setBusy(true);
    setError(null);
    try {
      const { draft: next } = await api<{ draft: Draft }>('POST', `/uploads/${draft.id}/format`, { delimiter, encoding, header_row: f!.header_row, ...choice });
      onChange(next);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  const detected = `${ENCODING_NAMES[f.detected.encoding]}, ${DELIMITER_NAMES[f.detected.delimiter].toLowerCase()}-separated`;
  const headerWords = f.header_row ? 'first row as the column names' : 'no header row (columns named column_1, column_2, …)';
  return (
    <section class="card" aria-labelledby="format-h">
      <h2 id="format-h">How the file was read</h2>
      {f.workbook ? (
        <p>
          An Excel workbook: its first worksheet, <strong>{f.workbook.sheet}</strong>, read with each cell as the text Excel shows (numbers in full, a formula's result),{' '}
          {headerWords}. The console converted it to a UTF-8, comma-separated CSV; that is the file validated and processed.
        </p>
      ) : (
        <p>
          Detected: <strong>{detected}</strong>. Read as {ENCODING_NAMES[f.encoding]}, {DELIMITER_NAMES[f.delimiter].toLowerCase()}-separated, {headerWords}.
          {f.converted && ' The console converted it to a UTF-8, comma-separated CSV; that is the file validated and processed.'}
        </p>
      )}
      {(f.workbook?.formulas_without_result ?? 0) > 0 && (
        <p class="warning" role="status">
          {f.workbook!.formulas_without_result === 1 ? '1 formula cell has' : `${num(f.workbook!.formulas_without_result!)} formula cells have`} no saved result (the program that wrote the file did not
          compute them), so they are empty here. Open the file in Excel or another spreadsheet, save it, and upload it again.
        </p>
      )}
      {!f.workbook && f.delimiter !== f.detected.delimiter && (
        <p class="warning" role="status">
          Read with {DELIMITER_NAMES[f.delimiter].toLowerCase()}s, the file gives {draft.header.length === 1 ? 'one column' : `${draft.header.length} columns`}; it looks {DELIMITER_NAMES[f.detected.delimiter].toLowerCase()}-separated. Check the
          preview, or choose {DELIMITER_NAMES[f.detected.delimiter]} and read it again.
        </p>
      )}
      {f.first_row_looks_like_data && changeable && (
        <fieldset>
          <legend>The first row looks like a contact. Is it a header row?</legend>
          <div class="checks">
            <label class="check">
              <input type="radio" name="header-row" checked={!f.header_row} disabled={busy} onChange={() => void reread({ header_row: false })} />
              No, it is a contact: keep it
            </label>
            <label class="check">
              <input type="radio" name="header-row" checked={f.header_row} disabled={busy} onChange={() => void reread({ header_row: true })} />
              Yes, it holds the column names
            </label>
          </div>
        </fieldset>
      )}
      {changeable && !f.workbook && (
        <form class="grid3" onSubmit={(e) => (e.preventDefault(), void reread({}))}>
          <div class="field">
            <label for="delimiter">Separator</label>
            <select id="delimiter" value={delimiter} onChange={(e) => setDelimiter((e.currentTarget as HTMLSelectElement).value as ImportFormat['delimiter'])}>
              {Object.entries(DELIMITER_NAMES).map(([v, n]) => (
                <option key={v} value={v}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="encoding">Encoding</label>
            <select id="encoding" value={encoding} onChange={(e) => setEncoding((e.currentTarget as HTMLSelectElement).value as ImportFormat['encoding'])}>
              {Object.entries(ENCODING_NAMES).map(([v, n]) => (
                <option key={v} value={v}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <button type="submit" class="secondary" disabled={busy}>
              Read the file again
            </button>
          </div>
        </form>
      )}
      {f.rows_problem && (
        <p role="alert" class="error">
          {f.rows_problem.message}
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
