import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { sdkStorage } from '../../../lambdas/platform/aws/sdk-storage';
import { verifyRequest } from '../../../local/sigv4';

const secret = { accessKeyId: 'S3RVER', secretAccessKey: 'a-secret-of-this-test' };

describe('sdkStorage: how a put sends its body', () => {
  const seen: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { etag: '"0"' }).end();
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const put = async (bodyUnchecked: boolean, body: Buffer) => {
    const client = await sdkStorage({ region: 'us-east-1', credentials: secret, s3Endpoint: endpoint, forcePathStyle: true, bodyUnchecked }).blob();
    await client.send(new PutObjectCommand({ Bucket: 'b', Key: `k-${bodyUnchecked}`, Body: body, ContentType: 'text/csv' }));
    return seen.at(-1)!;
  };

  it('to a store that never reads the body (bodyUnchecked): unhashed and without a checksum, still signed', async () => {
    const body = Buffer.from('phone\n+12125550143\n');
    const request = await put(true, body);
    expect(request.body.equals(body)).toBe(true);
    expect(request.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
    expect(Object.keys(request.headers).filter((h) => h.startsWith('x-amz-checksum-'))).toEqual([]);
    expect(verifyRequest({ method: 'PUT', url: request.url, headers: request.headers }, secret)).toEqual({ ok: true });
  });

  it("otherwise the SDK's own: the body's SHA-256 signed and its CRC32 sent", async () => {
    const body = Buffer.from('phone\n+12125550143\n');
    const request = await put(false, body);
    expect(request.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(body).digest('hex'));
    expect(request.headers['x-amz-checksum-crc32']).toBeTruthy();
    expect(verifyRequest({ method: 'PUT', url: request.url, headers: request.headers }, secret)).toEqual({ ok: true });
  });
});
