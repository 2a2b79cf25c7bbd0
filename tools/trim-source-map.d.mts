/** The map (JSON text) keeping only the segments that point into the service's own sources; no `sourcesContent`. */
export function trimSourceMap(text: string): string;
