// Lambda memory sized from measured peaks, with headroom (docs/operations.md, Memory). One place,
// so a new measurement changes one number.

/**
 * The uploads function's own peak creating an upload (`npm run bench -- api-memory`: the bundled
 * function code in a process of its own, staged CSV, VmHWM): 469–471 MB for 250,000 rows (22 MB),
 * 673–688 MB for 100 MB (the largest file, at the most rows it takes). The worst run counts.
 */
export const UPLOAD_CREATE_MEASURED_PEAK_MB = 688;

/**
 * The functions that create uploads from a CSV (the uploads API, the console API) parse the whole
 * file in the function. 1024 MB is 49% over the 100 MB peak above (and about twice the 250,000-row
 * one); Node's heap stays well inside it without a lower `--max-old-space-size`.
 */
export const UPLOAD_CREATE_MEMORY_MB = 1024;
