import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';
import { tempDir } from '../../support/temp-dirs';

// README's "Receiving webhooks locally", as written: tools/local-webhook-cert.sh makes a test CA
// and a receiver certificate; `npm start` with NODE_EXTRA_CA_CERTS naming the CA (and
// WEBHOOKS_ALLOW_LOOPBACK) delivers to the https receiver; without it, the ping fails on the
// certificate and the registration is refused.

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
let certs: string;
let receiverUrl: string;
let closeReceiver: () => void;
const received: string[] = [];

beforeAll(async () => {
  certs = tempDir('webhook-certs-');
  const { stdout } = await run('bash', [join(ROOT, 'tools/local-webhook-cert.sh'), certs]);
  expect(stdout.trim()).toBe(join(certs, 'ca-cert.pem'));
  const server = createServer({ key: readFileSync(join(certs, 'receiver-key.pem')), cert: readFileSync(join(certs, 'receiver-cert.pem')) }, (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(String((JSON.parse(body) as { type?: unknown }).type));
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiverUrl = `https://localhost:${(server.address() as AddressInfo).port}/hook`;
  closeReceiver = () => server.close();
});
afterAll(async () => {
  closeReceiver?.();
  await killAllChildRuntimes();
});

const register = async (env: Record<string, string>) => {
  const runtime = await startChildRuntime(freshDataDir(), { WEBHOOKS_ALLOW_LOOPBACK: 'true', ...env });
  const res = await fetch(`${runtime.url}/api/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${runtime.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiverUrl }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('receiving webhooks locally over https', () => {
  it('with NODE_EXTRA_CA_CERTS naming the test CA, the service trusts the receiver: registered after its ping', async () => {
    const { status } = await register({ NODE_EXTRA_CA_CERTS: join(certs, 'ca-cert.pem') });
    expect(status).toBe(201);
    expect(received).toContain('webhook.ping');
  });

  it('without it, the ping fails on the certificate and the registration is refused', async () => {
    const { status, body } = await register({});
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toMatch(/ping_failed/);
    expect(JSON.stringify(body)).toMatch(/certificate/i);
  });
});
