import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { deployedAssembly, type DeployedAssembly } from './assembly';
import { NODE22 } from './node22';

const run = promisify(execFile);

/**
 * Every synthesized bundle is self-contained: copied alone into an empty folder (no node_modules
 * above it, no NODE_PATH), it loads on Node 22 and exports its handler. A bundle that leaves the
 * SDK or any dependency external fails here with "Cannot find package".
 */
describe('synthesized bundles', () => {
  let assembly: DeployedAssembly;
  beforeAll(async () => {
    assembly = await deployedAssembly();
  }, 300_000);

  it('are all found in the template (one per service function)', () => {
    expect(assembly.functions.length).toBeGreaterThanOrEqual(16);
  });

  it('take credentials from the environment only, where Lambda puts the role\'s: no SSO, STS or ini-file providers (lib/bundle-aliases.ts)', () => {
    // Operation names of the clients the SDK's default chain carries (@aws-sdk/nested-clients).
    const chainOnly = ['GetRoleCredentials', 'AssumeRoleWithWebIdentity'];
    const carrying = assembly.functions.filter((fn) => {
      const source = readFileSync(join(fn.assetDir, `${fn.handler.split('.')[0]}.mjs`), 'utf8');
      return chainOnly.some((name) => source.includes(name));
    });
    expect(carrying.map((fn) => fn.logicalId)).toEqual([]);
  });

  it('each load from an empty folder on Node 22 and export the handler the template names', async () => {
    const failures: string[] = [];
    await Promise.all(
      assembly.functions.map(async (fn) => {
        const dir = mkdtempSync(join(tmpdir(), 'bundle-alone-'));
        try {
          cpSync(fn.assetDir, dir, { recursive: true });
          const [file, exported] = fn.handler.split('.') as [string, string];
          const url = pathToFileURL(join(dir, `${file}.mjs`)).href;
          const script = `import(${JSON.stringify(url)}).then((m) => { if (typeof m[${JSON.stringify(exported)}] !== 'function') { console.error('no export ${exported}'); process.exit(3); } })`;
          await run(NODE22, ['-e', script], { cwd: dir, env: { PATH: '/usr/bin:/bin', AWS_REGION: 'us-east-1' } });
        } catch (error) {
          failures.push(`${fn.logicalId}: ${String((error as { stderr?: string }).stderr ?? error).split('\n').find((l) => /Error|Cannot/.test(l)) ?? error}`);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
