import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../support/child-runtime';
import { waitFor } from '../support/wait';

// npm start's Ctrl-C: the first lets the uploads being processed finish (with a slow provider that
// can take minutes), a second stops at once, and the upload resumes at the next start.

const CHILD_TEST_MS = 240_000;
afterEach(async () => {
  await killAllChildRuntimes();
});

/** A Twilio Lookup stand-in that holds every request until `answering` is set, then answers a mobile line. */
async function lookupStandIn() {
  const held: ServerResponse[] = [];
  let answering = false;
  let asked = 0;
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const e164 = decodeURIComponent(new URL(req.url ?? '/', 'http://fake').pathname.split('/').pop() ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ phone_number: e164, valid: true, line_type_intelligence: { type: 'mobile', carrier_name: 'Verizon Wireless', error_code: null } }));
  };
  const server = createServer((req, res) => {
    asked++;
    if (answering) answer(req, res);
    else held.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked: () => asked,
    answer: () => {
      answering = true;
    },
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('stopping npm start', () => {
  it('a second Ctrl-C stops at once while an upload waits on the provider; the upload finishes at the next start', async () => {
    const lookup = await lookupStandIn();
    try {
      const env = { CLASSIFICATION_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_LOOKUP_BASE_URL: lookup.url, TWILIO_TIMEOUT_MS: '120000' };
      const dataDir = freshDataDir();
      const first = await startChildRuntime(dataDir, env);
      const phones = Array.from({ length: 100 }, (_, i) => `+1646555${String(3000 + i)}`);
      const form = new FormData();
      form.append('phone_column', 'phone');
      form.append('file', new Blob([['phone', ...phones].join('\r\n') + '\r\n'], { type: 'text/csv' }), 'list.csv');
      const auth = { authorization: `Bearer ${first.apiKey}` };
      const created = await fetch(`${first.url}/api/v1/uploads`, { method: 'POST', body: form, headers: auth });
      expect(created.status).toBe(200);
      const { id } = (await created.json()) as { id: string };
      await waitFor('the upload to ask the provider', () => (lookup.asked() > 0 ? true : null));

      first.process.kill('SIGINT');
      await waitFor('the first Ctrl-C to be taken', () => (first.output().includes('SIGINT: shutting down') ? true : null));
      expect(first.output()).toContain('Ctrl-C again to stop now');
      first.process.kill('SIGINT');
      expect(await first.exited).toBe(130);
      expect(first.output()).toContain(`SIGINT again: stopping now; the work under way resumes at the next start on ${dataDir}.`);

      lookup.answer();
      const second = await startChildRuntime(dataDir, env);
      const status = async () => ((await (await fetch(`${second.url}/api/v1/uploads/${id}`, { headers: auth })).json()) as { status: string }).status;
      await waitFor('the upload to complete after the restart', async () => ((await status()) === 'completed' ? true : null), 180_000);
    } finally {
      await lookup.close();
    }
  }, CHILD_TEST_MS);
});
