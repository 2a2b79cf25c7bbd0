import type { Plugin } from 'esbuild';

/** Points the AWS SDK's imports of its barrel modules at the files that define each name (tools/deep-imports.mjs). */
export function deepImports(): Plugin;
