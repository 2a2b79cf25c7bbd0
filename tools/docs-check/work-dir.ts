import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

// The folder the docs' commands run in: the checkout's entries linked in (so `npm run admin`,
// `examples/…` and `tools/…` are there as in a clone), and anything a block writes
// (webhook-secret.txt, shot.jpg, .certs/) lands in the temporary folder, not the checkout.

const LEFT_OUT = new Set(['.git', '.data', '.test-cache', 'cdk.out', '.certs', 'webhook-secret.txt', 'shot.jpg']);

export function makeWorkDir(root: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(root)) if (!LEFT_OUT.has(entry)) symlinkSync(join(root, entry), join(dir, entry));
  return dir;
}
