import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { publicKeyFingerprint } from '../../../lambdas/platform/cloudfront-key-ids';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../lambdas/platform/config';
import { missingForCharging, NOT_READY_TTL_MS, READY_TTL_MS, readinessCheck, type SecretReader } from '../../../lambdas/platform/charge-readiness';
import { manualClock } from '../../support/manual-clock';

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const KEY_ARN = 'arn:aws:secretsmanager:us-east-1:111111111111:secret:signing-AbCdEf';
const TWILIO_ARN = 'arn:aws:secretsmanager:us-east-1:111111111111:secret:twilio-AbCdEf';
const cloudFront = { DOWNLOADS_CLOUDFRONT_DOMAIN: 'd1.cloudfront.net', DOWNLOADS_CLOUDFRONT_KEY_ID: 'K1', DOWNLOADS_SIGNING_KEY_SECRET_ARN: KEY_ARN };
const twilio = { CLASSIFICATION_PROVIDER: 'twilio', TWILIO_SECRET_ARN: TWILIO_ARN };
const filled = JSON.stringify({ account_sid: `AC${'0123456789abcdef'.repeat(2)}`, auth_token: 'token' });

/** A Secrets Manager stand-in: values by ARN, counting reads; `throws` for an unreadable secret. */
function secrets(values: Record<string, string | undefined | Error>, versions: Record<string, number | Error> = {}): SecretReader & { reads: number } {
  const reader = {
    reads: 0,
    read: async (arn: string) => {
      reader.reads++;
      const v = values[arn];
      if (v instanceof Error) throw v;
      return v;
    },
    versionCount: async (arn: string) => {
      reader.reads++;
      const v = versions[arn] ?? 0;
      if (v instanceof Error) throw v;
      return v;
    },
  };
  return reader;
}

const missing = async (env: Record<string, string>, values: Record<string, string | undefined | Error>) => (await missingForCharging(parseConfig(env), secrets(values))).map((m) => m.name);

describe('ready before it charges', () => {
  it('needs nothing in S3-link mode with a keyless provider, and reads no secret', async () => {
    const reader = secrets({});
    expect(await missingForCharging(parseConfig({ CLASSIFICATION_PROVIDER: 'simulator' }), reader)).toEqual([]);
    expect(reader.reads).toBe(0);
  });

  it('CloudFront mode needs a PEM private key in the secret (the deploy-time empty or placeholder value is not one)', async () => {
    expect(await missing(cloudFront, { [KEY_ARN]: pem })).toEqual([]);
    for (const value of [undefined, '', 'REPLACE_ME', '-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----', new Error('AccessDenied')]) {
      expect(await missing(cloudFront, { [KEY_ARN]: value }), String(value)).toEqual(['CloudFront download signing key']);
    }
    expect(await missing({ DOWNLOADS_CLOUDFRONT_DOMAIN: 'd1.cloudfront.net', DOWNLOADS_CLOUDFRONT_KEY_ID: 'K1' }, {})).toEqual(['CloudFront download signing key']);
    expect(await missing({ ...cloudFront, DOWNLOADS_CLOUDFRONT_KEY_ID: '' }, { [KEY_ARN]: pem })).toEqual(['CloudFront download signing key']);
    // A key given directly (local runs) needs no secret.
    expect(await missing({ DOWNLOADS_CLOUDFRONT_DOMAIN: 'd1.cloudfront.net', DOWNLOADS_CLOUDFRONT_KEY_ID: 'K1', DOWNLOADS_SIGNING_PRIVATE_KEY: pem }, {})).toEqual([]);
  });

  it("with the key group's keys listed, needs the private key of one of them (another pair's would sign links CloudFront refuses)", async () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ours = publicKeyFingerprint(createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString());
    const listed = { DOWNLOADS_CLOUDFRONT_DOMAIN: 'd1.cloudfront.net', DOWNLOADS_CLOUDFRONT_KEY_IDS: `KNEXT=${publicKeyFingerprint(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString())},KNOW=${ours}`, DOWNLOADS_SIGNING_KEY_SECRET_ARN: KEY_ARN };
    expect(await missing(listed, { [KEY_ARN]: pem })).toEqual([]);
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const found = await missingForCharging(parseConfig(listed), secrets({ [KEY_ARN]: stranger }));
    expect(found).toEqual([{ name: 'CloudFront download signing key', why: expect.stringMatching(/holds a private key whose public half is none of the key group's/) }]);
  });

  it('Twilio needs its credentials filled in, not the placeholder the stack creates', async () => {
    expect(await missing(twilio, { [TWILIO_ARN]: filled })).toEqual([]);
    const placeholder = JSON.stringify({ account_sid: 'REPLACE_WITH_ACCOUNT_SID', auth_token: 'generated-random' });
    for (const value of [placeholder, undefined, 'not json', '{"account_sid": "AC123"}', JSON.stringify({ account_sid: `AC${'0'.repeat(32)}`, auth_token: '' }), new Error('ResourceNotFoundException')]) {
      expect(await missing(twilio, { [TWILIO_ARN]: value }), String(value)).toEqual(['Twilio credentials']);
    }
    expect(await missing({ CLASSIFICATION_PROVIDER: 'twilio' }, {})).toEqual(['Twilio credentials']);
  });

  it('a function that only charges sees whether the Twilio secret was changed from its placeholder, never its value', async () => {
    const env = { CLASSIFICATION_PROVIDER: 'twilio', TWILIO_CREDENTIALS_ARN: TWILIO_ARN };
    const cfg = parseConfig(env);
    const describeOnly = (versions: number | Error) => ({ read: async () => expect.fail('read a value it may not'), versionCount: async () => { if (versions instanceof Error) throw versions; return versions; } });
    expect(await missingForCharging(cfg, describeOnly(1))).toEqual([{ name: 'Twilio credentials', why: expect.stringMatching(/still holds the placeholder/) }]);
    expect(await missingForCharging(cfg, describeOnly(2))).toEqual([]);
    expect((await missingForCharging(cfg, describeOnly(new Error('AccessDenied')))).map((m) => m.name)).toEqual(['Twilio credentials']);
    expect(await missing({ CLASSIFICATION_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' }, {})).toEqual([]);
  });

  it.each(['telnyx', 'trestle'])('%s needs its API key: in the environment, in its secret, or (functions that only charge) a secret changed from its placeholder', async (provider) => {
    const P = provider.toUpperCase();
    const name = provider === 'telnyx' ? 'Telnyx API key' : 'Trestle API key';
    const ARN = `arn:aws:secretsmanager:us-east-1:111111111111:secret:${provider}-AbCdEf`;
    expect(await missing({ CLASSIFICATION_PROVIDER: provider }, {})).toEqual([name]);
    expect(await missing({ CLASSIFICATION_PROVIDER: provider, [`${P}_API_KEY`]: 'k' }, {})).toEqual([]);
    expect(await missing({ CLASSIFICATION_PROVIDER: provider, [`${P}_SECRET_ARN`]: ARN }, { [ARN]: '{"api_key":"  "}' })).toEqual([name]);
    expect(await missing({ CLASSIFICATION_PROVIDER: provider, [`${P}_SECRET_ARN`]: ARN }, { [ARN]: '{"api_key":"KEY123"}' })).toEqual([]);
    const cfg = parseConfig({ CLASSIFICATION_PROVIDER: provider, [`${P}_CREDENTIALS_ARN`]: ARN });
    expect((await missingForCharging(cfg, secrets({}, { [ARN]: 1 }))).map((m) => m.name)).toEqual([name]);
    expect(await missingForCharging(cfg, secrets({}, { [ARN]: 2 }))).toEqual([]);
  });

  it('names every missing thing, and tells the operator why without telling the client', async () => {
    const found = await missingForCharging(parseConfig({ ...cloudFront, ...twilio }), secrets({}));
    expect(found.map((m) => m.name)).toEqual(['CloudFront download signing key', 'Twilio credentials']);
    expect(found[0]!.why).toContain(KEY_ARN);
    expect(found[1]!.why).toContain(TWILIO_ARN);
  });

  it('is cached per container: ready for 5 minutes, not ready for 30 s, so a key put in is seen soon', () => {
    const clock = manualClock();
    return clock.run(async () => {
      let t = 1_000_000;
      clock.set(() => t);
      const values: Record<string, string | undefined> = { [KEY_ARN]: undefined };
      const reader = secrets(values);
      const check = readinessCheck(parseConfig(cloudFront), reader);
      expect(await check()).toHaveLength(1);
      t += NOT_READY_TTL_MS - 1;
      expect(await check()).toHaveLength(1);
      expect(reader.reads).toBe(1);
      values[KEY_ARN] = pem;
      t += 1;
      expect(await check()).toEqual([]);
      expect(reader.reads).toBe(2);
      t += READY_TTL_MS - 1;
      expect(await check()).toEqual([]);
      expect(reader.reads).toBe(2);
      t += 1;
      await check();
      expect(reader.reads).toBe(3);
    });
  });
});
