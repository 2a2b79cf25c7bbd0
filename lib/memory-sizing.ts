// Lambda memory sized from measured peaks, with headroom (docs/operations.md, Memory). One place,
// so a new measurement changes one number.

/**
 * The functions that create uploads from a CSV (the uploads API, the console API) parse the whole
 * file in the function: a 100 MB staged CSV peaked at about 640 MB (issue 12's measurement), above
 * the 512 MB default; 1024 MB leaves 60% headroom.
 */
export const UPLOAD_CREATE_MEMORY_MB = 1024;
