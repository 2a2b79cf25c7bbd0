import { execFile, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../support/bundled-entry';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';
import { waitFor } from '../../support/wait';

// The admin CLI on a stopped data folder holds the folder's instance lock (local/instance-lock.ts)
// while it uses it, as `npm start` does: a start beside it is refused with one line naming the
// command that holds the folder (not LevelDB's "Database failed to open"), and so is a second
// admin command; once it ends, the folder starts.

const run = promisify(execFile);
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await killAllChildRuntimes();
  for (const server of servers.splice(0)) await server.close();
});

/** A Twilio Lookup stand-in that holds every request until `answer()`, then answers a mobile line. */
async function heldLookups() {
  const held: [IncomingMessage, ServerResponse][] = [];
  let answering = false;
  const reply = (req: IncomingMessage, res: ServerResponse) => {
    const e164 = decodeURIComponent(new URL(req.url ?? '/', 'http://fake').pathname.split('/').pop() ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ phone_number: e164, valid: true, line_type_intelligence: { type: 'mobile', carrier_name: 'Verizon Wireless', error_code: null } }));
  };
  const server = createServer((req, res) => (answering ? reply(req, res) : held.push([req, res])));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const lookups = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    answer: () => {
      answering = true;
      for (const [req, res] of held.splice(0)) reply(req, res);
    },
    close: () => {
      for (const [, res] of held.splice(0)) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
  servers.push(lookups);
  return lookups;
}

describe('the admin CLI on a stopped data folder holds its instance lock', () => {
  it('a start beside a running admin command is refused naming it, so is another admin command; once it ends the folder starts', async () => {
    const dataDir = freshDataDir();
    const first = await startChildRuntime(dataDir);
    const created = await fetch(`${first.url}/api/v2/contacts`, { method: 'POST', headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ phone: '+12125552600' }) });
    expect(created.status).toBe(201);
    await first.kill('SIGTERM');

    // An admin command that uses the stopped folder until the test lets it finish: the pool's lookups wait on the stand-in.
    const lookups = await heldLookups();
    const env = { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR', CLASSIFICATION_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_LOOKUP_BASE_URL: lookups.url, TWILIO_TIMEOUT_MS: '600000' };
    const holder = spawn(process.execPath, [await bundledEntry('bin/admin.ts'), 'run-contact-pool'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let holderOut = '';
    holder.stdout.on('data', (d: Buffer) => (holderOut += d.toString()));
    holder.stderr.on('data', (d: Buffer) => (holderOut += d.toString()));
    const holderExited = new Promise<number | null>((done) => holder.once('exit', (code) => done(code)));
    await waitFor('the admin command to ask the provider', () => (lookups.held() > 0 ? true : null));

    const start = await startChildRuntime(dataDir).then(
      () => 'the start was not refused',
      (error: Error) => error.message,
    );
    expect(start).toContain(`The admin CLI (pid ${holder.pid}, \`npm run admin -- run-contact-pool\`) is using ${dataDir}. Start again once it has finished, or set DATA_DIR to use a different data folder.`);
    expect(start).toMatch(/exited \(1\)/);
    expect(start).not.toContain('Database failed to open');

    const second = await run(process.execPath, [await bundledEntry('bin/admin.ts'), 'list-keys', '--org', 'x'], { env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' } }).then(
      () => 'the command was not refused',
      (error: { code: number; stderr: string; stdout: string }) => ({ code: error.code, stderr: error.stderr, stdout: error.stdout }),
    );
    expect(second).toEqual({ code: 1, stdout: '', stderr: `error: The admin CLI (pid ${holder.pid}, \`npm run admin -- run-contact-pool\`) is using ${dataDir}. Try again once it has finished.\n` });

    lookups.answer();
    expect(await holderExited, holderOut).toBe(0);
    expect(JSON.parse(holderOut)).toMatchObject({ pooled: 1 });
    const after = await startChildRuntime(dataDir);
    expect((await fetch(`${after.url}/openapi.json`)).status).toBe(200);
  });
});
