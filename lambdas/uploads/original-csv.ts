import { filesBucket, putObject } from '../platform/blob';
import { planCsvBytes, planCsvStream, type PlannedCsv } from './csv-planner';
import type { ColumnMapping } from './plan';

/** A CSV read as a stream (a staged object: staging.ts's stagedCsv), and stored as an original by its own means. */
export interface StreamedCsv {
  open(): Promise<{ body: AsyncIterable<Uint8Array>; length: number; storeAs(key: string): Promise<void> }>;
}

/** A CSV to create an upload from: its bytes as received (a multipart part, a JSON body made CSV), or a staged object. */
export type CsvSource = Buffer | StreamedCsv;

/** A CSV read once by create: its plan, its size, and how to store it as the upload's original. */
export interface ReadOriginal {
  planned: PlannedCsv;
  size: number;
  store(key: string): Promise<void>;
}

/**
 * Reads a CSV for create, holding no more of it than it already is: bytes received are planned in
 * pieces and stored as they are; a streamed one (a staged object) is planned as its body comes in
 * and stored by its own means (copied inside the store, if still the version read: a staged file
 * posted again meanwhile fails the copy instead of giving the upload a file its plan is not of).
 */
export async function readOriginal(source: CsvSource, mapping: ColumnMapping, options: { minimum?: number; firstCells?: boolean }, planned?: PlannedCsv): Promise<ReadOriginal> {
  if (Buffer.isBuffer(source)) {
    return { planned: planned ?? (await planCsvBytes(source, mapping, options)), size: source.length, store: (key) => putObject(filesBucket(), key, source, 'text/csv') };
  }
  const object = await source.open();
  // A refusal met mid-stream ends the loop, and with it the body's connection.
  const fromStream = await planCsvStream(object.body, mapping, options);
  return { planned: fromStream, size: object.length, store: object.storeAs };
}
