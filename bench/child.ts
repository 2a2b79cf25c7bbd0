import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TSX = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

/**
 * Runs a bench script in a fresh process and returns the JSON object its last stdout line holds:
 * a TypeScript file with tsx, a bundle (.mjs, bundle-child.ts) with plain node as Lambda runs it.
 */
export function runChild<T>(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const bundled = script.endsWith('.mjs');
  const path = bundled ? script : fileURLToPath(new URL(script, import.meta.url));
  return new Promise((resolve, reject) => {
    const child = bundled
      ? spawn(process.execPath, [path, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
      : spawn(TSX, [path, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${last}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${script} printed no JSON: ${last}`));
      }
    });
  });
}
