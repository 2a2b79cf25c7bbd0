import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { generateKeyPair } from 'jose';
import { consoleToken } from '../../support/console-token';
import { useTestService } from '../../support/runtime';
import { inviteMember, INVITE_BOUND_MS } from '../../../lambdas/console/invite-member';
import { insertItem } from '../../../lambdas/platform/table';
import { sha256Hex } from '../../../lambdas/platform/ids';
import { addMember, createUser, mintKey, setSubscription, spamVerificationCodes } from '../../../lambdas/admin/admin';
import { newCustomer } from '../../support/customer';
import { csvParseCount } from '../../../lambdas/uploads/csv';
import { filesBucket, getObject, objectExists, putObject, s3 } from '../../../lambdas/platform/blob';
import { getUpload } from '../../../lambdas/uploads/upload-repository';
import { keys } from '../../../lambdas/uploads/upload';
import { readWorkRows } from '../../../lambdas/uploads/work-file';

// The console's API over HTTP with tokens as the provider issues them (signed with the runtime's
// key), and hostile ones: other organizations, members, races, refused charges.

// The webhook receiver below listens on loopback, which the service refuses unless told (local only).
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();
const tokenFor = (userId: string, overrides: Parameters<typeof consoleToken>[2] = {}) => consoleToken(service, userId, overrides);

async function call(token: string, method: string, path: string, body?: unknown, raw?: { type: string; data: string }) {
  const res = await fetch(`${service.url}/console/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(raw ? { 'content-type': raw.type } : body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: raw ? raw.data : body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

function csv(valid: number): string {
  const rows = ['name,phone'];
  for (let i = 0; i < valid; i++) rows.push(`P${i},(212) ${300 + (i % 600)}-${String(2000 + i).padStart(4, '0')}`);
  return rows.join('\n') + '\n';
}

async function draftReadyToConfirm(token: string, numbers = 120): Promise<string> {
  const started = await call(token, 'POST', '/uploads?filename=list.csv', undefined, { type: 'text/csv', data: csv(numbers) });
  expect(started.status).toBe(200);
  const id = started.body.draft.id as string;
  const mapped = await call(token, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] });
  expect(mapped.body.draft.status).toBe('awaiting_confirmation');
  return id;
}

async function otherOrg(credits: number) {
  const { org, user } = await newCustomer({ name: 'Other', subscriptionActive: true, credits, keys: 0 });
  return { org, user, token: await tokenFor(user.id) };
}

describe('console API authorization', () => {
  it('the provider refuses an authorization request without PKCE, or for another redirect', async () => {
    const base = `${service.url}/oidc/auth?client_id=console&response_type=code&scope=openid&state=s`;
    const noPkce = await fetch(`${base}&redirect_uri=${encodeURIComponent(`${service.url}/callback`)}`, { redirect: 'manual' });
    expect(noPkce.headers.get('location')).toContain('error_description=Authorization+Server+policy+requires+PKCE');
    const elsewhere = await fetch(`${base}&redirect_uri=${encodeURIComponent('https://evil.example/callback')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`, { redirect: 'manual' });
    expect(elsewhere.headers.get('location')).toBeNull();
    expect(await elsewhere.text()).toContain('redirect_uri did not match');
  });

  it('refuses tokens signed by another key, for another audience or issuer, or expired', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    for (const token of [
      await tokenFor(service.userId, { key: privateKey }),
      await tokenFor(service.userId, { aud: 'someone-else' }),
      await tokenFor(service.userId, { iss: 'http://evil.example/oidc' }),
      await tokenFor(service.userId, { exp: Math.floor(Date.now() / 1000) - 120 }),
      // Signed with the provider's own key, yet no expiry (API Gateway's authorizer refuses it too), or no user id a user can have.
      await tokenFor(service.userId, { exp: null }),
      await tokenFor('u'.repeat(5000)),
    ]) {
      expect((await call(token, 'GET', '/me')).status).toBe(401);
    }
    expect((await call(await tokenFor(service.userId), 'GET', '/me')).body.role).toBe('owner');
  });

  it('a signed-in user outside every organization gets 403; an unknown user too', async () => {
    const loner = await createUser('loner@example.com');
    expect((await call(await tokenFor(loner.id), 'GET', '/me')).status).toBe(403);
    expect((await call(await tokenFor('00000000-0000-4000-8000-000000000000'), 'GET', '/me')).status).toBe(403);
  });

  it('members cannot open the developer panel', async () => {
    const member = service.runtime.console!.member;
    const token = await tokenFor(member.userId);
    expect((await call(token, 'GET', '/me')).body.role).toBe('member');
    expect((await call(token, 'GET', '/keys')).status).toBe(403);
    expect((await call(token, 'POST', '/keys', {})).status).toBe(403);
    expect((await call(token, 'GET', '/members')).status).toBe(403);
    expect((await call(token, 'DELETE', `/members/${service.userId}`)).status).toBe(403);
    expect((await call(token, 'GET', '/webhooks')).status).toBe(403);
    expect((await call(token, 'POST', '/webhooks', { url: 'https://example.com/h' })).status).toBe(403);
    expect((await call(token, 'POST', `/webhooks/00000000-0000-4000-8000-000000000000/deliveries/dlv_${'0'.repeat(32)}/redeliver`)).status).toBe(403);
  });
});

describe('inviting members', () => {
  it('an owner invites by email: a member, shown how to sign in; once per address, concurrent invitations included; members cannot invite', async () => {
    const owner = await tokenFor(service.userId);
    const email = `Invited-${Date.now()}@Example.com`;
    const [first, second] = await Promise.all([call(owner, 'POST', '/members', { email: ` ${email} ` }), call(owner, 'POST', '/members', { email: email.toLowerCase() })]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const invited = first.status === 200 ? first : second;
    const refused = first.status === 200 ? second : first;
    expect(refused.body.detail).toBe(`${email.toLowerCase()} is already a member of this organization`);
    expect(invited.body.member).toMatchObject({ email: email.toLowerCase(), role: 'member' });
    expect(invited.body.invitation).toEqual({ delivery: 'shown', sign_in_url: `${service.url}/`, temporary_password: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/) });
    const members = (await call(owner, 'GET', '/members')).body.data as { user_id: string; email: string; role: string }[];
    expect(members.filter((m) => m.email === email.toLowerCase())).toEqual([expect.objectContaining({ user_id: invited.body.member.user_id, role: 'member' })]);
    // The invited person is a member: member pages yes, owner pages no.
    const theirs = await tokenFor(invited.body.member.user_id);
    expect((await call(theirs, 'GET', '/me')).body.role).toBe('member');
    expect((await call(theirs, 'GET', '/keys')).status).toBe(403);
    expect((await call(theirs, 'POST', '/members', { email: 'friend@example.com' })).status).toBe(403);
    expect((await call(await tokenFor(service.runtime.console!.member.userId), 'POST', '/members', { email: 'friend@example.com' })).status).toBe(403);
    // Again later: still a member. Removed: the address can be invited again.
    expect((await call(owner, 'POST', '/members', { email })).status).toBe(409);
    expect((await call(owner, 'DELETE', `/members/${invited.body.member.user_id}`)).status).toBe(200);
    const again = await call(owner, 'POST', '/members', { email });
    expect(again.status).toBe(200);
    expect(again.body.member.user_id).not.toBe(invited.body.member.user_id);
  });

  it('undoes an invitation whose sign-in could not be made, and takes over a guard a failure left behind', async () => {
    const failing = { memberInviter: { invite: async () => Promise.reject(new Error('Cognito unreachable')) } };
    await expect(inviteMember(failing, service.organizationId, service.userId, 'undo@example.com')).rejects.toThrow('Cognito unreachable');
    const owner = await tokenFor(service.userId);
    const emails = async () => ((await call(owner, 'GET', '/members')).body.data as { email: string }[]).map((m) => m.email);
    expect(await emails()).not.toContain('undo@example.com');
    const emailed = { memberInviter: { invite: async () => ({ delivery: 'email' as const, status: 'FORCE_CHANGE_PASSWORD' }) } };
    expect((await inviteMember(emailed, service.organizationId, service.userId, 'undo@example.com')).invitation).toEqual({ delivery: 'email', status: 'FORCE_CHANGE_PASSWORD' });
    expect(await emails()).toContain('undo@example.com');
    // A guard whose invitation died half-way (its user never became a member), older than the bound: taken over.
    await insertItem('MemberInvite', { pk: `ORG#${service.organizationId}`, sk: `INVITE#${sha256Hex('left@example.com')}`, user_id: '00000000-0000-4000-8000-00000000dead', invited_at: Date.now() - INVITE_BOUND_MS - 1000 });
    expect((await call(owner, 'POST', '/members', { email: 'left@example.com' })).status).toBe(200);
    // A fresh one is an invitation under way: 409.
    await insertItem('MemberInvite', { pk: `ORG#${service.organizationId}`, sk: `INVITE#${sha256Hex('busy@example.com')}`, user_id: '00000000-0000-4000-8000-00000000beef', invited_at: Date.now() });
    expect((await call(owner, 'POST', '/members', { email: 'busy@example.com' })).status).toBe(409);
  });

  it('refuses what is no address and unknown fields, inviting nobody', async () => {
    const owner = await tokenFor(service.userId);
    const before = ((await call(owner, 'GET', '/members')).body.data as unknown[]).length;
    for (const body of [{ email: 'not an address' }, { email: 'a@example.com\r\nBcc: b@example.com' }, { email: 'x'.repeat(300) + '@example.com' }, { email: 42 }, {}, { email: 'ok@example.com', role: 'owner' }]) {
      expect((await call(owner, 'POST', '/members', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(((await call(owner, 'GET', '/members')).body.data as unknown[]).length).toBe(before);
  });
});

describe('developer panel', () => {
  it('never touches another organization: its keys and drafts are 404', async () => {
    const other = await otherOrg(1000);
    const theirKey = await mintKey(other.org.id, other.user.id);
    const owner = await tokenFor(service.userId);
    expect((await call(owner, 'DELETE', `/keys/${theirKey.record.id}`)).status).toBe(404);
    const theirDraft = await draftReadyToConfirm(other.token);
    expect((await call(owner, 'GET', `/uploads/${theirDraft}`)).status).toBe(404);
    expect((await call(owner, 'POST', `/uploads/${theirDraft}/confirm`, { validation_tier: 'standard', expected_credits: 120 })).status).toBe(404);
    // Their key still works.
    expect((await fetch(`${service.url}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${theirKey.key}` } })).status).toBe(200);
  });

  it('removing an owner revokes the keys they minted; an expiry in the past is refused', async () => {
    const owner = await tokenFor(service.userId);
    const second = await createUser('second-owner@example.com');
    await addMember(service.organizationId, second.id, 'owner');
    const minted = await call(await tokenFor(second.id), 'POST', '/keys', { expires_at: '2099-01-01T00:00:00Z' });
    expect(minted.status).toBe(200);
    expect(minted.body.key).toMatch(/^svc_live_/);
    expect(minted.body.display_prefix).toBe((minted.body.key as string).slice(0, 12));
    const use = () => fetch(`${service.url}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${minted.body.key}` } });
    expect((await use()).status).toBe(200);
    const listed = await call(owner, 'GET', '/keys');
    const row = (listed.body.data as { id: string; created_by: string; key?: string; key_hash?: string }[]).find((k) => k.id === minted.body.id)!;
    expect(row.created_by).toBe('second-owner@example.com');
    expect(row).not.toHaveProperty('key_hash');
    const removed = await call(owner, 'DELETE', `/members/${second.id}`);
    expect(removed.body).toEqual({ user_id: second.id, revoked_keys: 1 });
    // Removed already, or never a member: not found, like an unknown key.
    const again = await call(owner, 'DELETE', `/members/${second.id}`);
    expect([again.status, again.body.detail]).toEqual([404, 'Member not found']);
    expect((await use()).status).toBe(401);
    expect((await call(owner, 'POST', '/keys', { expires_at: '2001-01-01T00:00:00Z' })).status).toBe(400);
    expect((await call(owner, 'DELETE', `/members/${service.userId}`)).status).toBe(400);
  });

  it('names a key (trimmed, optional), lists its name, and refuses a long or multi-line name and unknown fields', async () => {
    const owner = await tokenFor(service.userId);
    const named = await call(owner, 'POST', '/keys', { name: '  CRM sync  ' });
    expect(named.status).toBe(200);
    expect(named.body.name).toBe('CRM sync');
    const unnamed = await call(owner, 'POST', '/keys', { name: '   ' });
    expect(unnamed.body.name).toBeNull();
    const listed = (await call(owner, 'GET', '/keys')).body.data as { id: string; name: string | null }[];
    expect(listed.find((k) => k.id === named.body.id)!.name).toBe('CRM sync');
    expect(listed.find((k) => k.id === unnamed.body.id)!.name).toBeNull();
    for (const [body, detail] of [
      [{ name: 'x'.repeat(81) }, 'A key name has at most 80 characters'],
      [{ name: 'a\nb' }, 'A key name is one line of text, without control characters'],
      [{ name: 'ok\u202e' }, 'A key name is one line of text, without control characters'],
    ] as const) {
      const refused = await call(owner, 'POST', '/keys', body);
      expect([refused.status, refused.body.detail]).toEqual([400, detail]);
    }
    expect((await call(owner, 'POST', '/keys', { name: 42 })).status).toBe(400);
    expect((await call(owner, 'POST', '/keys', { name: 'ok', scopes: ['admin'] })).status).toBe(400);
    // Nothing was minted by the refusals.
    expect(((await call(owner, 'GET', '/keys')).body.data as unknown[]).length).toBe(listed.length);
  });
});

describe('spam monitoring from the console needs an active subscription, as the API does', () => {
  it('with the subscription inactive every spam call is 403 in words: no code is sent, none is accepted, and the numbers are kept', async () => {
    const other = await otherOrg(1000);
    const added = await call(other.token, 'POST', '/spam', { phone_number: '(202) 318-0781', verification_method: 'sms' });
    expect(added.status).toBe(200);
    const id = added.body.number.id as string;
    const [code] = await spamVerificationCodes('+12023180781');
    await setSubscription(other.org.id, false);
    const refused = await call(other.token, 'POST', '/spam', { phone_number: '(202) 318-0782', verification_method: 'sms' });
    expect(refused).toEqual({ status: 403, body: { detail: 'Your organization’s subscription is not active, and this needs an active subscription' } });
    // Nothing was sent (a paid message in AWS).
    expect(await spamVerificationCodes('+12023180782')).toEqual([]);
    for (const [method, path, body] of [
      ['POST', `/spam/${id}/verify`, { code: code!.code }],
      ['POST', `/spam/${id}/resend`, {}],
      ['GET', '/spam'],
      ['GET', `/spam/${id}/history`],
      ['GET', `/spam/${id}/screenshot`],
      ['DELETE', `/spam/${id}`],
    ] as const) {
      const answer = await call(other.token, method, path, body);
      expect([answer.status, answer.body.detail], `${method} ${path}`).toEqual([403, refused.body.detail]);
    }
    expect((await spamVerificationCodes('+12023180781')).length).toBe(1);
    // The public API refuses the same way (one gate).
    const key = (await mintKey(other.org.id, other.user.id)).key;
    const api = await fetch(`${service.url}/api/v1/spam/numbers`, { headers: { authorization: `Bearer ${key}` } });
    expect([api.status, ((await api.json()) as { detail: string }).detail]).toEqual([403, refused.body.detail]);
    // Numbers are kept while it lapses, still unverified: the refused code verified nothing.
    await setSubscription(other.org.id, true);
    const listed = await call(other.token, 'GET', '/spam');
    expect(listed.body.numbers.map((n: { id: string; verified: boolean }) => [n.id, n.verified])).toEqual([[id, false]]);
  });
});

describe('deleting from the console', () => {
  it("another organization's monitored number and webhook endpoint are 404 and stay; a member may stop monitoring a number of theirs", async () => {
    const other = await otherOrg(1000);
    const added = await call(other.token, 'POST', '/spam', { phone_number: '(202) 318-0777', verification_method: 'sms' });
    expect(added.status).toBe(200);
    const numberId = added.body.number.id as string;
    expect(numberId).toMatch(/^[0-9a-f-]{36}$/);
    const owner = await tokenFor(service.userId);
    expect(await call(owner, 'DELETE', `/spam/${numberId}`)).toEqual({ status: 404, body: { detail: expect.any(String) } });
    expect((await call(other.token, 'GET', '/spam')).body.numbers.map((n: { id: string }) => n.id)).toEqual([numberId]);
    // Members watch labels too: a member of that organization stops monitoring it.
    const member = await createUser(`member-${Math.random().toString(36).slice(2)}@example.com`);
    await addMember(other.org.id, member.id, 'member');
    const gone = await call(await tokenFor(member.id), 'DELETE', `/spam/${numberId}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ success: true, number_id: numberId, phone_number: '+12023180777' });
    expect((await call(other.token, 'GET', '/spam')).body.numbers).toEqual([]);
    expect((await call(other.token, 'DELETE', `/spam/${numberId}`)).status).toBe(404);
    // The number can be added again (its guard went with it).
    expect((await call(other.token, 'POST', '/spam', { phone_number: '(202) 318-0777', verification_method: 'sms' })).status).toBe(200);

    // Webhooks: owners only, and only their own.
    const receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as { port: number }).port;
      const hook = await call(other.token, 'POST', '/webhooks', { url: `http://127.0.0.1:${port}/h` });
      expect(hook.status).toBe(200);
      const hookId = hook.body.webhook.id as string;
      // One endpoint per URL and organization, the API's rule: a 409 in the envelope; another organization may register it.
      const again = await call(other.token, 'POST', '/webhooks', { url: `http://127.0.0.1:${port}/h#again` });
      expect(again).toEqual({ status: 409, body: { detail: expect.stringContaining(`already has a webhook endpoint for this URL (${hookId})`) } });
      const mine = await call(owner, 'POST', '/webhooks', { url: `http://127.0.0.1:${port}/h` });
      expect(mine.status).toBe(200);
      expect((await call(owner, 'DELETE', `/webhooks/${mine.body.webhook.id as string}`)).status).toBe(200);
      expect((await call(owner, 'DELETE', `/webhooks/${hookId}`)).status).toBe(404);
      expect((await call(owner, 'POST', `/webhooks/${hookId}`, { is_active: false })).status).toBe(404);
      expect((await call(await tokenFor(member.id), 'DELETE', `/webhooks/${hookId}`)).status).toBe(403);
      expect((await call(other.token, 'GET', '/webhooks')).body.data).toHaveLength(1);
      expect((await call(other.token, 'DELETE', `/webhooks/${hookId}`)).body).toEqual({ id: hookId, deleted: true });
      expect((await call(other.token, 'GET', '/webhooks')).body.data).toEqual([]);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });
});

describe('large files through the staging path', () => {
  it("a staged file becomes a draft of the organization that staged it only; a malformed id is refused", async () => {
    const owner = await tokenFor(service.userId);
    const stage = await call(owner, 'POST', '/uploads/staging');
    expect(stage.status).toBe(200);
    expect(stage.body).toMatchObject({ staged_upload_id: expect.any(String), url: expect.any(String), fields: expect.any(Object), max_bytes: 100 * 1024 * 1024 });
    const form = new FormData();
    for (const [k, v] of Object.entries(stage.body.fields as Record<string, string>)) form.append(k, v);
    form.append('file', new Blob([csv(120)], { type: 'text/csv' }), 'list.csv');
    expect((await fetch(stage.body.url as string, { method: 'POST', body: form })).status).toBeLessThan(300);

    const other = await otherOrg(10);
    const theirs = await call(other.token, 'POST', '/uploads/staged', { staged_upload_id: stage.body.staged_upload_id });
    expect(theirs.status).toBe(400);
    expect(theirs.body.detail).toMatch(/No staged file/);
    expect((await call(owner, 'POST', '/uploads/staged', { staged_upload_id: '../../uploads/x' })).status).toBe(400);
    expect((await call(owner, 'POST', '/uploads/staged', { staged_upload_id: '00000000-0000-4000-8000-000000000000' })).status).toBe(400);

    const mine = await call(owner, 'POST', '/uploads/staged', { staged_upload_id: stage.body.staged_upload_id, filename: 'big.csv' });
    expect(mine.status).toBe(200);
    expect(mine.body.draft).toMatchObject({ status: 'pending_mapping', filename: 'big.csv', total_rows: 120, header: ['name', 'phone'] });
    // The draft holds its own copy: the staged file is deleted, not left for the two-day staging rule.
    expect(await objectExists(filesBucket(), `staging/${service.organizationId}/${stage.body.staged_upload_id}.csv`)).toBe(false);
    expect((await call(owner, 'GET', `/uploads/${mine.body.draft.id}`)).body.draft).toMatchObject({ total_rows: 120 });
  });
});

describe('in-app upload flow', () => {
  it('a bad mapping fails validation with the API rule; a corrected one goes on; confirming twice at once charges once', async () => {
    const owner = await tokenFor(service.userId);
    const started = await call(owner, 'POST', '/uploads?filename=race.csv', undefined, { type: 'text/csv', data: csv(130) });
    const id = started.body.draft.id as string;
    expect(started.body.draft.suggested.phone_columns).toEqual(['phone']);
    expect((await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 130 })).status).toBe(409);
    const bad = await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['telephone'] });
    expect(bad.body.draft.status).toBe('validation_failed');
    expect(bad.body.draft.failure).toEqual({ status: 400, detail: "phone column 'telephone' is not a column of the file; columns: 'name', 'phone'" });
    const good = await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] });
    expect(good.body.draft.validation.price).toEqual({ standard: 130, max: 195 });

    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    const results = await Promise.all([1, 2, 3].map(() => call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 130 })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    // The losers are told what happened, not the state they expected as the state they found.
    for (const lost of results.filter((r) => r.status === 409)) expect(lost.body.detail).toMatch(/^This upload was already confirmed elsewhere \(another tab or a colleague; it is (confirming|confirmed)\); it was charged once, not again$/);
    const after = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    expect(before.total - after.total).toBe(130);
    const upload = (await service.request('GET', `/api/v1/uploads/${id}`)).json() as Promise<{ source: string; api_key_id: string | null }>;
    expect(await upload).toMatchObject({ source: 'web', api_key_id: null });
    // Mapping after confirmation is refused.
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] })).status).toBe(409);
  });

  it('a confirm whose page showed other columns than the validated ones (another tab validated them at the same price) is a 409 that charges nothing', async () => {
    const owner = await tokenFor(service.userId);
    const started = await call(owner, 'POST', '/uploads?filename=two-tabs.csv', undefined, { type: 'text/csv', data: csv(120) });
    const id = started.body.draft.id as string;
    // Tab A validated the phone column alone; tab B then validated it with the name column, at the same price.
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] })).body.draft.validation.price.standard).toBe(120);
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'], full_name_column: 'name' })).body.draft.validation.price.standard).toBe(120);
    const balance = async () => ((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;
    const before = await balance();
    const stale = await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 120, expected_mapping: { phone_columns: ['phone'], full_name_column: null, first_name_column: null, last_name_column: null } });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toBe('The mapping changed since it was shown (validated again in another tab or by a colleague); review it and confirm again');
    expect(await balance()).toBe(before);
    expect((await call(owner, 'GET', `/uploads/${id}`)).body.draft.status).toBe('awaiting_confirmation');
    // The columns as validated ('' and null alike for no column): confirmed, charged once.
    const current = await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 120, expected_mapping: { phone_columns: ['phone'], full_name_column: 'name', first_name_column: '' } });
    expect(current.status).toBe(200);
    expect(before - (await balance())).toBe(120);
    await service.runtime.settleWorkflows();
  });

  it('confirming uses the plan validation made (no second parse of the file), and only for the mapping it was made for', async () => {
    const owner = await tokenFor(service.userId);
    const started = await call(owner, 'POST', '/uploads?filename=once.csv', undefined, { type: 'text/csv', data: csv(125) });
    const id = started.body.draft.id as string;
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] })).body.draft.status).toBe('awaiting_confirmation');
    // Mapped again with a name column: the plan kept is this mapping's, not the first one's.
    const parses = csvParseCount();
    const remapped = await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'], full_name_column: 'name' });
    expect(remapped.body.draft.validation.identity).toBe(true);
    const confirmed = await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 125 });
    expect(confirmed.status).toBe(200);
    expect(csvParseCount() - parses).toBe(1);
    const upload = (await (await service.request('GET', `/api/v1/uploads/${id}`)).json()) as { identity_enabled: boolean; valid_number_count: number };
    expect(upload).toMatchObject({ identity_enabled: true, valid_number_count: 125 });
    // The kept plan's work file (version 3, bytes) is stored as the upload's, whole.
    const work = (await getObject(filesBucket(), keys.work((await getUpload(id))!)))!;
    expect(JSON.parse(work.toString('latin1', 0, work.indexOf(10)))).toMatchObject({ v: 3, rows: 125 });
    const rows = readWorkRows(work);
    expect([rows.numbers[0], rows.names?.[0], rows.names?.length]).toEqual(['+12123002000', { full: 'P0' }, 125]);
  });

  it("a draft whose file expired (the bucket's web-drafts rule) is refused 410 at confirming and at mapping, left as it was, nothing charged", async () => {
    const owner = await tokenFor(service.userId);
    const id = await draftReadyToConfirm(owner);
    const balance = async () => ((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { balance: number }).balance;
    const before = await balance();
    // What the lifecycle rule does after the retention period.
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await (await s3()).send(new DeleteObjectCommand({ Bucket: filesBucket(), Key: `web-drafts/${service.organizationId}/${id}.csv` }));
    const detail = "This draft's file is no longer kept (a draft's files are removed after the uploads' retention period); upload the file again";
    const confirmed = await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 120 });
    expect([confirmed.status, confirmed.body.detail]).toEqual([410, detail]);
    // Not left confirming: the page shows it as it was.
    expect((await call(owner, 'GET', `/uploads/${id}`)).body.draft.status).toBe('awaiting_confirmation');
    const mapped = await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] });
    expect([mapped.status, mapped.body.detail]).toEqual([410, detail]);
    expect(await balance()).toBe(before);
  });

  it('refuses a column mapped as a phone and as a name, as the API does, and the draft can be mapped again', async () => {
    const owner = await tokenFor(service.userId);
    const id = (await call(owner, 'POST', '/uploads?filename=both.csv', undefined, { type: 'text/csv', data: csv(120) })).body.draft.id as string;
    const refused = await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'], full_name_column: 'phone' });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe("The column 'phone' is chosen as a phone column and as a name; choose it as one or the other");
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'], full_name_column: 'name' })).body.draft.status).toBe('awaiting_confirmation');
  });

  it('refuses a file name holding a bidirectional-formatting character, as the API does', async () => {
    const owner = await tokenFor(service.userId);
    const refused = await call(owner, 'POST', `/uploads?filename=${encodeURIComponent('invoice_\u202eVSC.exe')}`, undefined, { type: 'text/csv', data: csv(120) });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe('The file name holds U+202E, a control or bidirectional-formatting character that can make a file name show as another; remove it');    // A name up to the route's 255 characters is kept whole: no cut splitting an emoji, no lost extension.
    const long = `${'a'.repeat(199)}😀.csv`;
    const kept = await call(owner, 'POST', `/uploads?filename=${encodeURIComponent(long)}`, undefined, { type: 'text/csv', data: csv(120) });
    expect(kept.body.draft.filename).toBe(long);
  });

  it('confirms a draft whose kept plan was saved before work files were bytes (version 2 text)', async () => {
    const owner = await tokenFor(service.userId);
    const started = await call(owner, 'POST', '/uploads?filename=old-plan.csv', undefined, { type: 'text/csv', data: csv(121) });
    const id = started.body.draft.id as string;
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'], full_name_column: 'name' })).body.draft.status).toBe('awaiting_confirmation');
    const key = `web-drafts/${service.organizationId}/${id}-planned.json`;
    const saved = JSON.parse((await getObject(filesBucket(), key))!.toString('utf8')) as { mapping: unknown; planned: { work: string }; work_encoding?: string };
    expect(saved.work_encoding).toBe('base64');
    const { numbers, names } = readWorkRows(Buffer.from(saved.planned.work, 'base64'));
    const v2 = [JSON.stringify({ v: 2 }), JSON.stringify(numbers), JSON.stringify(names), 'null'].join('\n');
    await putObject(filesBucket(), key, JSON.stringify({ mapping: saved.mapping, planned: { ...saved.planned, work: v2 } }), 'application/json');
    const parses = csvParseCount();
    expect((await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 121 })).status).toBe(200);
    expect(csvParseCount() - parses).toBe(0);
    expect((await getObject(filesBucket(), keys.work((await getUpload(id))!)))!.toString('utf8')).toBe(v2);
    await service.runtime.settleWorkflows();
    const upload = (await (await service.request('GET', `/api/v1/uploads/${id}`)).json()) as { status: string; valid_number_count: number };
    expect(upload).toMatchObject({ status: 'completed', valid_number_count: 121 });
  });

  it('charges the price the page showed or nothing: a remap after it was shown makes confirm a 409', async () => {
    const owner = await tokenFor(service.userId);
    const twoColumns = ['phone1,phone2', ...Array.from({ length: 150 }, (_, i) => `+1212${2100000 + i},+1646${2100000 + i}`)].join('\n');
    const id = ((await call(owner, 'POST', '/uploads?filename=two.csv', undefined, { type: 'text/csv', data: twoColumns })).body.draft as { id: string }).id;
    const shown = (await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone1'] })).body.draft.validation.price as { standard: number };
    expect(shown.standard).toBe(150);
    // Another tab maps both columns: twice the numbers, twice the price.
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone1', 'phone2'] })).body.draft.validation.price.standard).toBe(300);
    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    const stale = await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: shown.standard });
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toBe('The price changed since it was shown: standard now costs 300 credits, not 150 (the mapping was changed); review it and confirm again');
    expect((await call(owner, 'GET', `/uploads/${id}`)).body.draft.status).toBe('awaiting_confirmation');
    expect(((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total).toBe(before.total);
    // Confirmed at the price now shown, it goes through and charges exactly that.
    expect((await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 300 })).status).toBe(200);
    expect(before.total - ((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total).toBe(300);
    await service.runtime.settleWorkflows();
  });

  it('a refused charge (402) leaves the draft awaiting confirmation, nothing visible and nothing charged', async () => {
    const poor = await otherOrg(50);
    const id = await draftReadyToConfirm(poor.token, 120);
    const refused = await call(poor.token, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 120 });
    expect(refused.status).toBe(402);
    expect((await call(poor.token, 'GET', `/uploads/${id}`)).body.draft.status).toBe('awaiting_confirmation');
    const list = await call(poor.token, 'GET', '/uploads');
    expect(list.body.data).toEqual([]);
    expect((await call(poor.token, 'GET', '/credits')).body.balance.total).toBe(50);
  });

  it('answers hostile ids, names, cells and queries with 4xx, and never leaves a draft validating', async () => {
    const owner = await tokenFor(service.userId);
    // Ids that are no UUID name nothing: a 3,000-character one (over DynamoDB's key limit) or bad percent-encoding.
    const long = 'a'.repeat(3000);
    for (const [method, path] of [['GET', `/uploads/${long}`], ['GET', `/uploads/${long}/report`], ['GET', '/uploads/%E0%A4%A'], ['DELETE', '/keys/%E0%A4%A'], ['GET', `/spam/${long}/history`], ['DELETE', `/members/${long}`]] as const) {
      const res = await call(owner, method, path);
      expect(res.status, `${method} ${path.slice(0, 40)}`).toBe(404);
    }

    // Invalid cells of megabytes: the draft shows them cut, the report keeps them whole.
    const wide = ['name,phone', ...Array.from({ length: 150 }, (_, i) => `a,+1212${2000000 + i}`), ...Array.from({ length: 100 }, (_, i) => `b,${'9'.repeat(5000)}${i}`)].join('\n');
    const id = ((await call(owner, 'POST', '/uploads?filename=bigbad.csv', undefined, { type: 'text/csv', data: wide })).body.draft as { id: string }).id;
    const mapped = await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] });
    expect(mapped.status).toBe(200);
    expect(mapped.body.draft.status).toBe('awaiting_confirmation');
    expect(mapped.body.draft.invalid_cells[0].value).toBe(`${'9'.repeat(200)}… (5001 characters)`);
    // Column names over the API's 256 characters are refused, and the draft can be mapped again.
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['x'.repeat(150_000)] })).status).toBe(400);
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] })).body.draft.status).toBe('awaiting_confirmation');
    // Validation that breaks part-way (here its stored file turned unreadable) puts the draft back to
    // be mapped again, instead of leaving it validating for good.
    await putObject(filesBucket(), `web-drafts/${service.organizationId}/${id}.csv`, 'a,"b\n', 'text/csv');
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] })).status).toBe(400);
    expect((await call(owner, 'GET', `/uploads/${id}`)).body.draft).toMatchObject({ status: 'pending_mapping', validated_rows: 0 });

    // A header too wide to show is refused before anything is stored.
    const header = Array.from({ length: 20_000 }, (_, i) => `column_number_${i}`).join(',');
    const refused = await call(owner, 'POST', '/uploads?filename=wide.csv', undefined, { type: 'text/csv', data: `${header}\n` });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/header row is too wide to map in the console \(20000 columns\)/);
    // In words, without the API's paths or field names.
    expect(refused.body.detail).not.toMatch(/\/api\/v1|POST /);
    const named = await call(owner, 'POST', '/uploads?filename=names.csv', undefined, { type: 'text/csv', data: csv(120).replace('name,phone', 'name,phone,last') });
    const namedId = named.body.draft.id as string;
    expect((await call(owner, 'POST', `/uploads/${namedId}/mapping`, { phone_columns: ['phone'], first_name_column: 'name' })).body).toEqual({ detail: 'Choose both a first-name and a last-name column, or neither' });
    expect((await call(owner, 'POST', `/uploads/${namedId}/mapping`, { phone_columns: ['phone'], full_name_column: 'name', first_name_column: 'name', last_name_column: 'last' })).body).toEqual({
      detail: 'Choose either a full-name column or first- and last-name columns, not both',
    });
    // First rows with long cells are shown cut.
    const longCells = ['name,phone,notes', ...Array.from({ length: 150 }, (_, i) => `a,+1212${2000000 + i},${i < 5 ? 'y'.repeat(90_000) : 'short'}`)].join('\n');
    const kept = await call(owner, 'POST', '/uploads?filename=longcell.csv', undefined, { type: 'text/csv', data: longCells });
    expect(kept.status).toBe(200);
    expect(kept.body.draft.preview[0][2]).toBe(`${'y'.repeat(200)}… (90000 characters)`);
    // The uploads list names each open draft; its header, preview and cells come with the draft alone.
    const listed = ((await call(owner, 'GET', '/uploads')).body.drafts as Record<string, unknown>[]).find((d) => d.id === kept.body.draft.id)!;
    expect(listed).toMatchObject({ filename: 'longcell.csv', status: 'pending_mapping', total_rows: 150 });
    expect([listed.header, listed.preview, listed.invalid_cells]).toEqual([undefined, undefined, undefined]);
  });

  it("writes the validation report safe to open: a customer's formula-like cell gets OWASP's leading quote", async () => {
    const owner = await tokenFor(service.userId);
    const data = csv(110) + 'evil,"=HYPERLINK(""http://evil"")"\n';
    const id = ((await call(owner, 'POST', '/uploads?filename=formula.csv', undefined, { type: 'text/csv', data })).body.draft as { id: string }).id;
    expect((await call(owner, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['phone'] })).body.draft.status).toBe('awaiting_confirmation');
    const report = await (await fetch((await call(owner, 'GET', `/uploads/${id}/report`)).body.url as string)).text();
    expect(report.split('\r\n')[1]).toBe(`112,phone,"'=HYPERLINK(""http://evil"")",not a valid US/CA phone number`);
  });

  it('console downloads take the API download query rules', async () => {
    const owner = await tokenFor(service.userId);
    const id = await draftReadyToConfirm(owner, 110);
    expect((await call(owner, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 110 })).status).toBe(200);
    await service.runtime.settleWorkflows();
    // The validation report stays available once the draft is an upload.
    expect((await call(owner, 'GET', `/uploads/${id}/report`)).status).toBe(200);
    const refusals: [string, string][] = [
      ['sort=garbage', 'sort must be best_status or original'],
      ['include_identity=maybe', 'include_identity must be true or false'],
      ['neutralize_formulas=1', 'neutralize_formulas must be true or false'],
      // Given twice: the values arrive joined by a comma, as API Gateway joins them.
      ['sort=best_status&sort=best_status', 'sort is given more than once; give it once, as best_status or original'],
    ];
    for (const [query, words] of refusals) {
      const res = await call(owner, 'GET', `/uploads/${id}/download/processed?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.detail, query).toMatch(/^Invalid query parameters: /);
      expect(res.body.detail, query).toContain(words);
    }
    expect((await call(owner, 'GET', `/uploads/${id}/download/processed?sort=best_status&neutralize_formulas=true`)).status).toBe(200);
  });

  it('refuses what is not CSV or UTF-8 before keeping anything', async () => {
    const owner = await tokenFor(service.userId);
    expect((await call(owner, 'POST', '/uploads', undefined, { type: 'text/csv', data: 'a,"b\n1,2\n' })).status).toBe(400);
    expect((await call(owner, 'POST', '/uploads', undefined, { type: 'text/csv', data: '' })).status).toBe(400);
  });
});
