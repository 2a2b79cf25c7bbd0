import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { freePortPair, randomPortBelowEphemeralRange } from '../../../local/free-port-pair';
import { startRuntime, type Runtime } from '../../../local/runtime';
import { tempDir } from '../../support/temp-dirs';

/** A free port p whose neighbour p + 1 is free too (the API's and the store's). */
const freePorts = async () => (await freePortPair('127.0.0.1', randomPortBelowEphemeralRange()))!;

/** GET through loopback while presenting `host`, as a client on another machine reaching the public URL would. */
function getVia(url: string, port: number): Promise<{ status: number; body: string }> {
  const parsed = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: parsed.pathname + parsed.search, headers: { host: parsed.host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const saved = { FILES_PORT: process.env.FILES_PORT, FILES_PUBLIC_URL: process.env.FILES_PUBLIC_URL };
let running: Runtime | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function start(dataDir: string, port: number): Promise<Runtime> {
  running = await startRuntime({ port, host: '127.0.0.1', dataDir, maxBodyBytes: 1024 * 1024, seedDemo: true });
  return running;
}

async function originalLink(runtime: Runtime, key: string): Promise<string> {
  const auth = { authorization: `Bearer ${key}` };
  const created = await fetch(`${runtime.url}/api/v1/uploads`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ phone_numbers: Array.from({ length: 100 }, (_, i) => `+1212555${String(2000 + i)}`) }),
  });
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };
  const link = await fetch(`${runtime.url}/api/v1/uploads/${id}/download/original`, { headers: auth });
  return ((await link.json()) as { url: string }).url;
}

describe('links for other machines: FILES_PUBLIC_URL and a stable FILES_PORT', () => {
  it('download and staging links start with the configured base and work when reached through it', async () => {
    const apiPort = await freePorts();
    process.env.FILES_PORT = String(apiPort + 1);
    process.env.FILES_PUBLIC_URL = `http://files.example.test:${apiPort + 1}`;
    const runtime = await start(tempDir('pvs-public-'), apiPort);
    const key = runtime.demo!.apiKey!;

    const link = await originalLink(runtime, key);
    expect(link.startsWith(`http://files.example.test:${apiPort + 1}/`)).toBe(true);
    const got = await getVia(link, apiPort + 1);
    expect(got.status).toBe(200);
    expect(got.body.split('\n')[0]).toBe('phone');
    // The signature covers the public host: presenting another host is refused.
    expect((await fetch(link.replace('files.example.test', '127.0.0.1'))).status).toBe(403);

    const staged = (await (await fetch(`${runtime.url}/api/v1/uploads/staging`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).json()) as { url: string };
    expect(staged.url.startsWith(`http://files.example.test:${apiPort + 1}/`)).toBe(true);
  });

  it('without settings the store sits next to the API (port + 1), the same on every start, and a link outlives a restart', async () => {
    delete process.env.FILES_PORT;
    delete process.env.FILES_PUBLIC_URL;
    const apiPort = await freePorts();
    const dataDir = tempDir('pvs-stable-');
    const first = await start(dataDir, apiPort);
    expect(first.backends.s3).toBe(`http://127.0.0.1:${apiPort + 1}`);
    const link = await originalLink(first, first.demo!.apiKey!);
    expect(link.startsWith(`http://127.0.0.1:${apiPort + 1}/`)).toBe(true);
    await first.stop();
    running = null;

    const second = await start(dataDir, apiPort);
    expect(second.backends.s3).toBe(`http://127.0.0.1:${apiPort + 1}`);
    const res = await fetch(link);
    expect(res.status).toBe(200);
  });

  it('refuses a FILES_PUBLIC_URL that is not an origin', async () => {
    process.env.FILES_PUBLIC_URL = 'files.example.test/downloads';
    await expect(startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 1024, seedDemo: false })).rejects.toThrow(/FILES_PUBLIC_URL/);
  });
});
