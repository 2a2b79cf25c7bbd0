import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { ConsolePageMissingError } from '../../lib/console-page';
import { PROJECT_ROOT } from '../../lib/service-function';
import { synthStack, testApp } from '../support/stack';
import { tempDir } from '../support/temp-dirs';

// `cdk deploy` builds what it ships (issue 28 item 3): cdk.json's build step makes the console
// page before every synth, and a synth without the page stops with one line.

const run = promisify(execFile);

describe('the console page at synth', () => {
  it("cdk.json builds the page (package.json's build:web, vite into web/dist) before every synth", () => {
    const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { build?: string };
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(cdkJson.build).toMatch(/^npm run --silent build:web\b/);
    expect(pkg.scripts['build:web']).toBe('vite build web');
  });

  it('ships the page and the configuration in the console bucket deployment', () => {
    const { template } = synthStack();
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment'));
    expect(deployments).toHaveLength(1);
    expect((deployments[0]!.Properties.SourceObjectKeys as unknown[]).length).toBe(2);
  });

  it('without index.html in the page folder, synth stops with the missing file and the command that makes it', () => {
    const empty = tempDir('pv-no-page-');
    const app = testApp({ consolePageDir: empty });
    expect(() => new PhoneValidationStack(app, 'NoPage', { env: { account: '111111111111', region: 'us-east-1' } })).toThrow(ConsolePageMissingError);
    expect(() => new PhoneValidationStack(testApp({ consolePageDir: empty }), 'NoPage', {})).toThrow(/index\.html is missing: run `npm run build:web`/);
  });

  it('bin/app.ts (what cdk runs) prints that as one line and exits 1', async () => {
    const empty = tempDir('pv-no-page-');
    const error = await run(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), [join(PROJECT_ROOT, 'bin/app.ts')], {
      cwd: PROJECT_ROOT,
      // The CLI hands context and the output folder to the app this way; bundling is skipped (it stops before any matters).
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], consolePageDir: empty }), CDK_OUTDIR: tempDir('pv-out-') },
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error!.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^The console page .*index\.html is missing: run `npm run build:web`/)]);
  });
});
