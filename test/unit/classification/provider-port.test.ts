import { afterEach, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { bindStorage } from '../../../lambdas/platform/storage';
import { configureRoot, parseConfig, type Config } from '../../../lambdas/platform/config';
import { createProviderFromEnv, providerOncePerConfig, simulatorProvider, type SignalProvider } from '../../../lambdas/classification';
import { awsClassificationPorts } from '../../../lambdas/composition/aws-classification';
import { classifyChunk } from '../../../lambdas/uploads/pipeline/classify-chunk';
import { keys, type UploadRecord } from '../../../lambdas/uploads/upload';
import { uploadRecord } from '../../support/upload-record';

// The classification provider is a port: built once per container by the composition root and
// reused by every chunk (its secret read once), with the network reached through the fetch the
// root gives it.

const upload: UploadRecord = uploadRecord({
  id: '00000000-0000-4000-8000-0000000000a1',
  organization_id: '00000000-0000-4000-8000-0000000000b2',
  status: 'processing',
  valid_row_count: 3,
  valid_number_count: 3,
  total_rows: 3,
  credits_required: 3,
  credits_charged: 3,
  credits_refunded: 0,
  processed_available: false,
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
});

/** A table holding the one upload and a file store in memory: a store built for the test, no runtime. */
function memoryStorage(objects: Map<string, Buffer>) {
  const table = { send: async () => ({ Item: { pk: `UPLOAD#${upload.id}`, sk: 'META', entity: 'Upload', version: 1, ...upload } }) };
  const blob = {
    send: async (command: { constructor: { name: string }; input: { Key: string; Body?: string } }) => {
      if (command.constructor.name === 'PutObjectCommand') return void objects.set(command.input.Key, Buffer.from(command.input.Body!));
      const found = objects.get(command.input.Key);
      if (!found) throw Object.assign(new Error('not found'), { name: 'NoSuchKey' });
      return { Body: Readable.from([found]), ContentLength: found.length };
    },
  };
  return { table: () => table as unknown as DynamoDBDocumentClient, blob: async () => blob as unknown as S3Client, linkSigner: async () => blob as unknown as S3Client };
}

let release: () => void = () => {};
afterEach(() => {
  release();
  configureRoot({});
});

describe('the classification provider port', () => {
  it('is built once for several chunk invocations of one container, and every chunk is answered', async () => {
    const objects = new Map<string, Buffer>();
    for (const chunk of [0, 1, 2]) objects.set(keys.chunk(upload, chunk), Buffer.from(JSON.stringify([{ key: `k${chunk}`, e164: `+1212555014${chunk}` }])));
    // The test is the root here: its table and bucket names, its store.
    configureRoot({ defaults: { TABLE_NAME: 'provider-port-test', FILES_BUCKET: 'provider-port-files' } });
    release = bindStorage(memoryStorage(objects));
    const built: Config[] = [];
    const ports = {
      provider: providerOncePerConfig({}, async (settings) => {
        built.push(settings);
        return simulatorProvider;
      }),
    };
    const answers = [];
    for (const chunk of [0, 1, 2]) answers.push(await classifyChunk(ports, { upload_id: upload.id, chunk }));
    expect(answers.map((a) => [a.chunk, a.done, a.count])).toEqual([[0, true, 1], [1, true, 1], [2, true, 1]]);
    expect(built).toHaveLength(1);
    for (const chunk of [0, 1, 2]) expect(objects.has(keys.chunkResult(upload, chunk))).toBe(true);
  });

  it('shares one build between concurrent first calls, and builds again after a failed one (a secret not filled in yet)', async () => {
    let builds = 0;
    let failNext = true;
    const provider = providerOncePerConfig({}, async () => {
      builds++;
      if (failNext) {
        failNext = false;
        throw new Error('secret not filled in');
      }
      return simulatorProvider;
    });
    await expect(provider()).rejects.toThrow('secret not filled in');
    const [a, b] = await Promise.all([provider(), provider()]);
    expect(a).toBe(simulatorProvider);
    expect(b).toBe(a);
    expect(await provider()).toBe(a);
    expect(builds).toBe(2);
  });

  it("is the AWS root's one port per container", () => {
    expect(awsClassificationPorts()).toBe(awsClassificationPorts());
  });

  it("reads a paid provider's secret with the root's client and reaches it through the root's fetch", async () => {
    const secretReads: string[] = [];
    const secrets = {
      send: async (command: { input: { SecretId: string } }) => {
        secretReads.push(command.input.SecretId);
        return { SecretString: JSON.stringify({ account_sid: 'AC1', auth_token: 'tok' }) };
      },
    } as unknown as SecretsManagerClient;
    const asked: { url: string; authorization: string | null }[] = [];
    const fetchStub: typeof fetch = async (input, init) => {
      asked.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify({ valid: true, line_type_intelligence: { type: 'landline', carrier_name: 'Stub Telecom' } }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const settings = parseConfig({ CLASSIFICATION_PROVIDER: 'twilio', TWILIO_SECRET_ARN: 'arn:twilio', TWILIO_LOOKUP_BASE_URL: 'http://lookup.invalid', LOOKUP_CACHE: 'off' });
    const provider: SignalProvider = await createProviderFromEnv(settings, { fetch: fetchStub, secrets });
    const [signals] = await provider.lookup([{ e164: '+12125550143' }], { tier: 'standard', skipMobileLookup: false });
    expect(secretReads).toEqual(['arn:twilio']);
    expect(asked).toEqual([{ url: 'http://lookup.invalid/v2/PhoneNumbers/%2B12125550143?Fields=line_type_intelligence', authorization: `Basic ${Buffer.from('AC1:tok').toString('base64')}` }]);
    expect(signals).toMatchObject({ lineType: 'landline', carrier: 'Stub Telecom' });
  });
});
