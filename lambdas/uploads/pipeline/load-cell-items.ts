import { filesBucket, getObject } from '../../platform/blob';
import { keys, type UploadRecord } from '../upload';
import { parseCellItems, type CellItems } from './cell-items';

/**
 * Which item each cell is (cell-items.ts), as prepare wrote it. An upload prepared before that
 * index existed has it recomputed from its rows, by prepare's code (its work file, or the original
 * planned again with libphonenumber-js), which Finalize loads only then.
 */
export async function loadCellItems(upload: UploadRecord): Promise<CellItems> {
  const stored = await getObject(filesBucket(), keys.cellItems(upload));
  if (stored) return parseCellItems(stored);
  return (await import('./prepare')).cellItemsFromRows(upload);
}
