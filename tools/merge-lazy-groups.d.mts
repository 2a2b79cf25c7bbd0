/** Lazy chunks merged into one file per group, by the chunk names of their `import()` targets. */
export const GROUPS: Record<string, RegExp>;
/**
 * Removes the chunks of `dir` no module names, then merges each group's chunks (and the chunks only
 * they import) into `dir/chunks/<group>.mjs`: for each chunk merged, the file it is now part of;
 * the chunks removed.
 */
export function mergeLazyGroups(dir: string): Promise<{ mergedInto: Map<string, string>; removed: string[] }>;
