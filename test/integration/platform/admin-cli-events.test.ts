import { execFile, spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../support/bundled-entry';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';
import { scaled, waitFor } from '../../support/wait';

// An admin command that raises events beside a running `npm start` hands their deliveries to the
// instance (local/instance-control.ts): the instance attempts them at once with its own settings
// and owns the retries; the CLI process, which exits as soon as it has answered, sends nothing.

const run = promisify(execFile);
afterAll(async () => {
  await killAllChildRuntimes();
});

describe('events an admin command raises are delivered by the running instance', () => {
  it('spam-run: spam.detected reaches a loopback receiver at once, and the CLI exits while the receiver still holds that request', async () => {
    const dataDir = freshDataDir();
    const runtime = await startChildRuntime(dataDir, { WEBHOOKS_ALLOW_LOOPBACK: 'true' });
    const key = runtime.apiKey!;
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${runtime.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const admin = async (...args: string[]) => (await run(process.execPath, [await bundledEntry('bin/admin.ts'), ...args], { env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' } })).stdout;

    // A receiver that answers the subscription's ping and holds every other request until the test lets it answer.
    const received: { type: string; respond: ServerResponse; abandoned: boolean }[] = [];
    const receiver = createServer((request, respond) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const type = String((JSON.parse(body) as { type?: unknown }).type);
        if (type === 'webhook.ping') respond.writeHead(200).end('ok');
        else {
          const held = { type, respond, abandoned: false };
          // The sender gave up (its attempt timed out, or its process ended).
          respond.on('close', () => (held.abandoned = !respond.writableFinished));
          received.push(held);
        }
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const hook = await api('POST', '/api/v1/webhooks', { url, events: ['spam.detected'] });
      expect(hook.status, await hook.clone().text()).toBe(201);

      // +1 202 318 0667: the simulator flags it on one carrier (verizon).
      const added = await api('POST', '/api/v1/spam/numbers', { phone_number: '(202) 318-0667' });
      expect(added.status).toBe(201);
      const { number } = (await added.json()) as { number: { id: string } };
      const [sent] = JSON.parse(await admin('spam-codes', '--phone', '2023180667')) as { code: string }[];
      expect((await api('POST', `/api/v1/spam/numbers/${number.id}/verify`, { code: sent!.code })).status).toBe(200);

      const cli = spawn(process.execPath, [await bundledEntry('bin/admin.ts'), 'spam-run'], { env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      cli.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((done) => cli.once('exit', (code) => done(code)));

      const first = await waitFor('the spam.detected delivery', () => received[0] ?? null, 120_000);
      expect(first.type).toBe('spam.detected');
      // Held: had the CLI sent it, the CLI would wait for that attempt before exiting.
      const code = await Promise.race([exited, new Promise<'still running'>((done) => setTimeout(() => done('still running'), scaled(60_000)).unref())]);
      expect(code, stderr).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ numbers_tested: 1, spam_detected_events: 1 });
      // The attempt is still open after the CLI has gone: the instance sent it. One attempt in all.
      expect(first.abandoned).toBe(false);
      expect(received).toHaveLength(1);
      first.respond.writeHead(200).end('ok');
    } finally {
      for (const r of received) if (!r.respond.headersSent) r.respond.writeHead(200).end();
      receiver.closeAllConnections();
      await new Promise<void>((done) => receiver.close(() => done()));
    }
  });
});
