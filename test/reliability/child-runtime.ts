// A whole local runtime in a child process, for the crash tests: started on a data folder, it
// creates (once) an organization with credits and a key, prints one JSON line with what the test
// needs, and runs until killed. FAULT_CRASH_AT makes it kill itself at a crash point.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRuntime } from '../../local/runtime';
import * as admin from '../../lambdas/admin/admin';

const dataDir = process.argv[2]!;
const credits = Number(process.argv[3] ?? 1000);
const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: 10 * 1024 * 1024, seedDemo: false });
const accountFile = join(dataDir, 'test-account.json');
if (!existsSync(accountFile)) {
  const org = await admin.createOrganization({ name: 'Crash test', credits, subscriptionActive: true });
  const user = await admin.createUser(`owner-${org.id}@example.test`);
  await admin.addMember(org.id, user.id, 'owner');
  const key = await admin.mintKey(org.id, user.id);
  writeFileSync(accountFile, JSON.stringify({ organizationId: org.id, apiKey: key.key }));
}
const account = JSON.parse(readFileSync(accountFile, 'utf8')) as { organizationId: string; apiKey: string };
process.stdout.write(`${JSON.stringify({ ready: true, url: runtime.url, dynamo: runtime.backends.dynamo, ...account })}\n`);
