import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { LOCAL_RESOURCES } from '../../../local/environment';
import { verifyRequest } from '../../../local/sigv4';
import { DynamoDBClient, GetItemCommand, ScanCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';

const service = useTestService();
const BUCKET = LOCAL_RESOURCES.buckets.files;

async function uploadAndLink(): Promise<{ url: string; id: string }> {
  const numbers = Array.from({ length: 100 }, (_, i) => `+1212555${String(1000 + i)}`);
  const created = await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: numbers, filename: 'mine.csv' } });
  expect(created.status).toBe(200);
  const { id } = (await created.json()) as { id: string };
  const link = await service.request('GET', `/api/v1/uploads/${id}/download/original`);
  expect(link.status).toBe(200);
  return { id, url: ((await link.json()) as { url: string }).url };
}

/** Changes one hex digit of the signature. */
const tamper = (url: string) => url.replace(/(X-Amz-Signature=[0-9a-f]{10})([0-9a-f])/, (_, head: string, c: string) => head + (c === '0' ? '1' : '0'));

describe('embedded store: signed requests only', () => {
  it("the service's own download link reads the file", async () => {
    const { url } = await uploadAndLink();
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect((await res.text()).split('\n')[0]).toBe('phone');
  });

  it('unsigned GET of a file and unsigned LIST of the bucket are refused', async () => {
    const { url } = await uploadAndLink();
    const bare = url.split('?')[0]!;
    const get = await fetch(bare);
    expect(get.status).toBe(403);
    expect(await get.text()).toMatch(/<Code>AccessDenied<\/Code>/);
    const endpoint = new URL(url).origin;
    for (const path of [`/${BUCKET}`, `/${BUCKET}?list-type=2`, '/']) {
      const res = await fetch(`${endpoint}${path}`);
      expect(res.status, path).toBe(403);
    }
    expect((await fetch(bare, { method: 'HEAD' })).status).toBe(403);
  });

  it('a tampered signature, another key, or a link past its expiry is refused', async () => {
    const { url } = await uploadAndLink();
    expect((await fetch(tamper(url))).status).toBe(403);
    // Same signature, another object of the bucket.
    const other = url.replace(/\/uploads\/[^/?]+\//, '/uploads/00000000-0000-4000-8000-000000000000/');
    expect(other).not.toBe(url);
    expect((await fetch(other)).status).toBe(403);
    // A longer lifetime than signed.
    expect((await fetch(url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604800'))).status).toBe(403);
    // The link as it will be after its expiry.
    const parsed = new URL(url);
    const expiresAt = Date.parse(parsed.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z')) + Number(parsed.searchParams.get('X-Amz-Expires')) * 1000;
    const request = { method: 'GET', url: parsed.pathname + parsed.search, headers: { host: parsed.host } };
    const secret = { accessKeyId: service.runtime.environment.AWS_ACCESS_KEY_ID!, secretAccessKey: service.runtime.environment.AWS_SECRET_ACCESS_KEY! };
    expect(verifyRequest(request, secret, expiresAt - 1000)).toEqual({ ok: true });
    expect(verifyRequest(request, secret, expiresAt + 1000)).toMatchObject({ ok: false, message: 'Request has expired' });
  });

  it('requests signed with the well-known s3rver secret are refused', async () => {
    const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const outsider = new S3Client({ endpoint: service.runtime.backends.s3, forcePathStyle: true, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    await expect(outsider.send(new ListObjectsV2Command({ Bucket: BUCKET }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    outsider.destroy();
  });
});

describe('embedded store: presigned POST staging', () => {
  async function stage() {
    const res = await service.request('POST', '/api/v1/uploads/staging');
    return (await res.json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
  }
  const post = (url: string, fields: Record<string, string>, content = 'phone\n2125550143\n') => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([content], { type: 'text/csv' }), 'a.csv');
    return fetch(url, { method: 'POST', body: form });
  };

  it('accepts the form as issued, and closes its connection after answering', async () => {
    const staged = await stage();
    const res = await post(staged.url, staged.fields);
    expect(res.status).toBeLessThan(300);
    // Not kept for reuse: a next file sent on it as the keep-alive timeout closed it would be lost to ECONNRESET.
    expect(res.headers.get('connection')).toBe('close');
  });

  it('refuses a form without a policy, with a tampered signature, or writing another key', async () => {
    const staged = await stage();
    const { Policy: _policy, ...noPolicy } = staged.fields;
    expect((await post(staged.url, noPolicy)).status).toBe(403);
    const sig = staged.fields['X-Amz-Signature']!;
    expect((await post(staged.url, { ...staged.fields, 'X-Amz-Signature': sig.replace(/^./, sig[0] === '0' ? '1' : '0') })).status).toBe(403);
    const otherKey = staged.fields.key!.replace(/[^/]+\.csv$/, '00000000-0000-4000-8000-000000000000.csv');
    expect((await post(staged.url, { ...staged.fields, key: otherKey })).status).toBe(403);
    expect((await post(staged.url, { ...staged.fields, 'x-amz-meta-extra': 'x' })).status).toBe(403);
  });
});

describe('embedded table: signed with the data folder secret only', () => {
  // What another local user could send: dynalite alone only checks that a signature is there.
  const client = (secretAccessKey: string, accessKeyId = service.runtime.environment.AWS_ACCESS_KEY_ID!) =>
    new DynamoDBClient({ endpoint: service.runtime.environment.AWS_ENDPOINT_URL_DYNAMODB!, region: service.runtime.environment.AWS_REGION!, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });
  const balanceKey = () => ({ pk: { S: `ORG#${service.organizationId}` }, sk: { S: 'BALANCE' } });

  it('a write or a scan signed with another secret or key id is refused, and the balance stays as it was', async () => {
    const before = await (await service.request('GET', '/api/v1/credits/balance')).json();
    const table = service.runtime.environment.TABLE_NAME ?? LOCAL_RESOURCES.table;
    for (const forger of [client('not-the-store-secret'), client(service.runtime.environment.AWS_SECRET_ACCESS_KEY!, 'AKIAOTHER')]) {
      const write = forger.send(new UpdateItemCommand({ TableName: table, Key: balanceKey(), UpdateExpression: 'ADD purchased :n', ExpressionAttributeValues: { ':n': { N: '5000000' } } }));
      await expect(write).rejects.toMatchObject({ name: expect.stringMatching(/^(InvalidSignatureException|UnrecognizedClientException)$/) });
      await expect(forger.send(new ScanCommand({ TableName: table, Limit: 1 }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 400 } });
      forger.destroy();
    }
    expect(await (await service.request('GET', '/api/v1/credits/balance')).json()).toEqual(before);
    // The data folder's secret (what the service's own clients and children sign with) still works.
    const own = client(service.runtime.environment.AWS_SECRET_ACCESS_KEY!);
    expect((await own.send(new GetItemCommand({ TableName: table, Key: balanceKey() }))).Item?.pk?.S).toBe(`ORG#${service.organizationId}`);
    own.destroy();
  });
});
