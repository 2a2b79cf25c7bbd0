import { storedLayoutOf, type CsvLayout } from '../../lambdas/uploads/work-file';
import { readLayoutIndex, type LayoutIndex } from '../../lambdas/uploads/layout-index';

/** A layout as finalize reads it: stored as create stores it (JSON), then read back by layout-index.ts. */
export const storedIndexOf = (layout: CsvLayout): LayoutIndex => readLayoutIndex(Buffer.from(JSON.stringify(storedLayoutOf(layout))));
