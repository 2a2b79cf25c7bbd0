/** Builds `entry`'s asset into `outdir` as lib/service-function.ts deploys it (tools/build-function.mjs). */
export function buildFunction(entry: string, outdir: string): Promise<void>;
