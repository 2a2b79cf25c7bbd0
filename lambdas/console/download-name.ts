import type { ProcessedQuery } from '../uploads/downloads';

// The name a processed download gets in the console: after what it holds, so slices of one upload
// do not overwrite each other in a downloads folder (the API names them all {base}_processed.csv).

const part = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase();

export function processedFilename(original: string, query: ProcessedQuery): string {
  // Whatever the file was (.csv, or a workbook or .txt the console converted), its processed file is CSV.
  const base = original.replace(/\.[^./\\]{1,10}$/, '');
  const statuses = (query.statuses ?? '').split(',').map((s) => part(s.trim())).filter(Boolean);
  const parts = [`${base}_processed`];
  if (statuses.length) parts.push(statuses.length > 4 ? `${statuses.length}-statuses` : statuses.join('+'));
  if (query.sort === 'best_status') parts.push('best-first');
  if (query.include_identity === 'true') parts.push('with-identity');
  // Safe is the console's default; a file with every cell exactly as uploaded says so.
  if (query.neutralize_formulas !== 'true') parts.push('as-uploaded');
  return `${parts.join('_')}.csv`;
}
