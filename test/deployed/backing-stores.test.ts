import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { externalEndpoint, startBackingStores } from './backing-stores';
import { localStoreSecret } from '../../local/environment';

describe('the deployed walk’s stores: embedded, or LocalStack by AWS_ENDPOINT_URL', () => {
  it('takes an http(s) origin, and nothing when unset or empty', () => {
    expect(externalEndpoint(undefined)).toBeNull();
    expect(externalEndpoint('  ')).toBeNull();
    expect(externalEndpoint('http://localhost:4566')).toBe('http://localhost:4566');
    expect(externalEndpoint('https://localstack.internal:4566/')).toBe('https://localstack.internal:4566');
  });

  it('refuses what is not an endpoint, naming the variable', () => {
    expect(() => externalEndpoint('localhost:4566')).toThrow(/AWS_ENDPOINT_URL must be http or https/);
    expect(() => externalEndpoint('not a url')).toThrow(/AWS_ENDPOINT_URL is not a URL/);
    expect(() => externalEndpoint('http://user:pw@localhost:4566')).toThrow(/must not carry credentials/);
    expect(() => externalEndpoint('http://localhost:4566/dynamodb?x=1')).toThrow(/must be an origin/);
  });

  it('says what to do when the endpoint does not answer', async () => {
    // A loopback port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    process.env.AWS_MAX_ATTEMPTS = '1';
    try {
      await expect(startBackingStores({ tableName: 't', buckets: ['b'], secret: localStoreSecret(null), external: `http://127.0.0.1:${port}` })).rejects.toThrow(
        new RegExp(`AWS_ENDPOINT_URL=http://127\\.0\\.0\\.1:${port}: its DynamoDB and S3 did not answer .*start LocalStack there`),
      );
    } finally {
      delete process.env.AWS_MAX_ATTEMPTS;
    }
  });
});
