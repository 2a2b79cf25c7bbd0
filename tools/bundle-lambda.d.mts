import type { BuildOptions } from 'esbuild';

/** Modules every Lambda bundle takes from elsewhere (esbuild `alias`). */
export const BUNDLE_ALIASES: Record<string, string>;
/** How every Lambda bundle is built (tools/bundle-lambda.mjs). */
export const BUNDLE_BUILD: BuildOptions & {
  target: string;
  mainFields: string[];
  banner: { js: string };
  alias: Record<string, string>;
};
/** Builds `entry` into `outdir` (index.mjs and chunks/) as every deployed function is built. */
export function bundleLambda(entry: string, outdir: string): Promise<void>;
