import type { Plugin } from 'esbuild';

/** Points the AWS SDK's imports of its barrel modules at the files that define each name (tools/deep-imports.mjs). */
export function deepImports(): Plugin;
/** Where esbuild resolves a relative import of a `.js` file, where its rules leave one answer; otherwise undefined. */
export function resolveRelativeJs(spec: string, dir: string): string | undefined;
