import { parse as csvParse } from 'csv-parse/sync';
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';

/** The CSV parsers create is measured against: each reads the whole text into rows of strings. */
export const PARSERS: Record<string, (csv: string) => unknown> = {
  'csv-parse': (csv) => csvParse(csv),
  papaparse: (csv) => Papa.parse(csv),
  udsv: (csv) => initParser(inferSchema(csv)).stringArrs(csv),
};

/** CPU time (user + system) of `fn`, ms. */
export const cpuMs = async (fn: () => unknown): Promise<number> => {
  const t = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(t);
  return (used.user + used.system) / 1000;
};

/** Median, lowest and highest of per-round ratios. */
export function spread(ratios: number[]): { median: number; min: number; max: number } {
  const sorted = [...ratios].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return { median: sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2, min: sorted[0]!, max: sorted.at(-1)! };
}
