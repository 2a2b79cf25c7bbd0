// A local runtime in a child process that drives one console draft through the in-app upload flow
// (lambdas/console/web-upload.ts) in process, for the draft kill tests: it creates the account the
// reliability children share (test-account.json), prints the draft's id, then maps it (`map`) or maps
// and confirms it (`confirm`). FAULT_CRASH_AT kills it at a crash point on the way; a run that
// reaches the end prints `done` and waits to be stopped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRuntime } from '../../local/runtime';
import * as admin from '../../lambdas/admin/admin';
import { getOrganization, getUser } from '../../lambdas/auth/identity-repository';
import { confirmWebUpload, mapWebUpload, startWebUpload } from '../../lambdas/console/web-upload';
import type { ConsolePrincipal } from '../../lambdas/console/principal';
import { hundredNumbers } from '../support/phone-inputs';

const dataDir = process.argv[2]!;
const action = process.argv[3] as 'map' | 'confirm';
const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: 10 * 1024 * 1024, seedDemo: false });
const org = await admin.createOrganization({ name: 'Draft crash test', credits: 1000, subscriptionActive: true });
const user = await admin.createUser(`owner-${org.id}@example.test`);
await admin.addMember(org.id, user.id, 'owner');
const key = await admin.mintKey(org.id, user.id);
writeFileSync(join(dataDir, 'test-account.json'), JSON.stringify({ organizationId: org.id, apiKey: key.key }));
const principal: ConsolePrincipal = { user: (await getUser(user.id))!, organization: (await getOrganization(org.id))!, organizationId: org.id, userId: user.id, role: 'owner' };

const csv = Buffer.from(['phone', ...hundredNumbers()].join('\n') + '\n');
const draft = await startWebUpload(principal, 'people.csv', csv);
process.stdout.write(`${JSON.stringify({ draftId: draft.id })}\n`);
const mapped = await runtime.run(() => mapWebUpload(principal, draft.id, { phoneColumns: ['phone'] }));
if (action === 'confirm') await runtime.run(() => confirmWebUpload(runtime.ports, principal, draft.id, 'standard', false, mapped.validation!.price.standard));
process.stdout.write('done\n');
