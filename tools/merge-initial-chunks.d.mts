/** Merges `dir/index.mjs` and the chunks it imports statically into `dir/index.mjs`; the number of modules merged (0: left as it was). */
export function mergeInitialChunks(dir: string): Promise<number>;
/** `file` and every module of its asset it imports statically. */
export function staticClosureOf(file: string, into?: Set<string>): Set<string>;
