import { startsLikeZip } from './zip-directory';

// Whether a file the console was sent is a workbook (import-file.ts), told from its first bytes
// alone, so reading text never loads the workbook reader (import-xlsx.ts, loaded at the first
// workbook: most uploads are text).

/** An OLE compound file: an Excel 97-2003 workbook (.xls), or an .xlsx saved with a password (encrypted inside one): not read. */
export const startsLikeOle = (bytes: Buffer): boolean => bytes.length >= 8 && bytes.readUInt32LE(0) === 0xe011cfd0 && bytes.readUInt32LE(4) === 0xe11ab1a1;

/** Whether the bytes are a workbook to convert (a zip, or an OLE file to refuse) rather than text. */
export const isWorkbook = (bytes: Buffer): boolean => startsLikeZip(bytes) || startsLikeOle(bytes);
