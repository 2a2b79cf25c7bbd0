import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../lib/service-function';
import { tempDir } from '../support/temp-dirs';

const run = promisify(execFile);

/**
 * `cdk synth` with the project's cdk.json attempts no outbound call: every HTTP(S) request the CLI
 * makes goes through HTTPS_PROXY, here a recorder on loopback. Without `notices: false` and
 * `cli-telemetry: false` the CLI connects to cli.cdk.dev-tools.aws.dev and the telemetry endpoint.
 */
describe('cdk.json', () => {
  let proxy: Server;
  let proxyUrl = '';
  const attempts: string[] = [];
  let dir = '';

  beforeAll(async () => {
    proxy = createServer((req, res) => {
      attempts.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    proxy.on('connect', (req, socket) => {
      attempts.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const address = proxy.address();
    proxyUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    dir = tempDir('cdk-offline-');
    // A tiny synthesized assembly stands in for the app: the CLI's own calls are what is checked.
    const app = new App({ outdir: join(dir, 'assembly') });
    new Topic(new Stack(app, 'Tiny'), 'Topic');
    app.synth();
    // Its `build` step (the console page's vite build, test/infra/console-page.test.ts) is left
    // out: the folder holds no web/ to build, and the CLI's own calls are what is checked here.
    const { build: _build, ...cdkJson } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'cdk.json'), JSON.stringify(cdkJson));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('turns notices and telemetry off, so synth makes no outbound call', async () => {
    const { CDK_DISABLE_CLI_TELEMETRY: _ignored, ...env } = process.env;
    await run(join(PROJECT_ROOT, 'node_modules/.bin/cdk'), ['synth', '--quiet', '--app', join(dir, 'assembly')], {
      cwd: dir,
      env: { ...env, HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, https_proxy: proxyUrl, http_proxy: proxyUrl, NO_PROXY: '', no_proxy: '' },
    });
    expect(attempts).toEqual([]);
  });
});
