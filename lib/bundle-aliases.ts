import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/**
 * Modules every Lambda bundle takes from elsewhere (esbuild `alias`), shared by
 * lib/service-function.ts and the bench (bench/bundles.ts, bench/bundle-child.ts), so that what is
 * measured is what is deployed. The SDK's default credential chain becomes the environment alone:
 * lambdas/platform/aws/env-credentials.ts says why.
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': join(ROOT, 'lambdas/platform/aws/env-credentials.ts'),
};
