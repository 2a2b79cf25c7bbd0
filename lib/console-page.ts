import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A synth input that is missing: bin/app.ts prints the message alone, as one line, and exits 1. */
export class ConsolePageMissingError extends Error {}

/**
 * The built console page the console's bucket deployment ships. `cdk synth` and `cdk deploy` build
 * it first (cdk.json's `build`: `npm run build:web`); a synth without it (cdk.json's build removed,
 * the build failed, another `--app`) must stop rather than ship a console with no page.
 */
export function requireConsolePage(dir: string, root: string): string {
  if (existsSync(join(dir, 'index.html'))) return dir;
  const shown = relative(root, join(dir, 'index.html')) || join(dir, 'index.html');
  throw new ConsolePageMissingError(`The console page ${shown} is missing: run \`npm run build:web\` (cdk.json's build step does it before every cdk synth and deploy).`);
}
