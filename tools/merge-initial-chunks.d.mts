/** Merges `dir/index.mjs` and the chunks it imports statically into `dir/index.mjs`; the number of modules merged (0: left as it was). */
export function mergeInitialChunks(dir: string): Promise<number>;
/** `file` and every module of its asset it imports statically. */
export function staticClosureOf(file: string, into?: Set<string>): Set<string>;
/** The files a module imports statically (paths resolved). */
export function staticImports(file: string): string[];
/** Every module (.mjs) under `dir`, in its subfolders too. */
export function modulesUnder(dir: string): string[];
/** How a merged module is bundled again from esbuild's output. */
export const REBUNDLE: import('esbuild').BuildOptions;
/** Moves the module built at `merged` (and its map) to `target`, its map comment and map's `file` renamed. */
export function placeMerged(merged: string, target: string): void;
