/** The map (JSON text) keeping only the segments that point into the service's own sources; no `sourcesContent`. */
export function trimSourceMap(text: string): string;
/** Every source map in `dir` and its subfolders (a bundle's entry and its chunks). */
export function mapsUnder(dir: string): string[];
