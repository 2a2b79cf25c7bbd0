import { CloudFormationClient, DescribeStacksCommand, type StackStatus } from '@aws-sdk/client-cloudformation';
import { DescribeSecretCommand, GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { doctor } from '../../../bin/doctor';

const cfn = mockClient(CloudFormationClient);
const sm = mockClient(SecretsManagerClient);
afterEach(() => {
  cfn.reset();
  sm.reset();
});

const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const arn = (name: string) => `arn:aws:secretsmanager:us-east-1:111111111111:secret:${name}-AbCdEf`;
// Output keys as CDK names them: inside a construct with a hash, at the stack's top level without.
const OUTPUTS = [
  { OutputKey: 'TableName', OutputValue: 'table' },
  { OutputKey: 'DownloadsSigningKeySecret1A2B3C4D', OutputValue: arn('signing') },
  { OutputKey: 'TwilioCredentialsSecret', OutputValue: arn('twilio') },
  { OutputKey: 'SpamDeviceLabTokenSecretE5F6A7B8', OutputValue: arn('lab') },
];
const stack = (outputs = OUTPUTS, StackStatus: StackStatus = 'CREATE_COMPLETE') =>
  cfn.on(DescribeStacksCommand, { StackName: 'PhoneValidation-prod' }).resolves({ Stacks: [{ StackName: 'PhoneValidation-prod', StackStatus, CreationTime: new Date(), Outputs: outputs }] });
const secret = (name: string, value: string | Error) =>
  value instanceof Error ? sm.on(GetSecretValueCommand, { SecretId: arn(name) }).rejects(value) : sm.on(GetSecretValueCommand, { SecretId: arn(name) }).resolves({ SecretString: value });
/** Versions of a secret: 1 as the stack created it, 2 once the operator has put a value. */
const versions = (name: string, n: number) =>
  sm.on(DescribeSecretCommand, { SecretId: arn(name) }).resolves({ VersionIdsToStages: Object.fromEntries(Array.from({ length: n }, (_, i) => [`v${i}`, i === n - 1 ? ['AWSCURRENT'] : ['AWSPREVIOUS']])) });
const notFound = () => Object.assign(new Error("Secrets Manager can't find the specified secret value for staging label: AWSCURRENT"), { name: 'ResourceNotFoundException' });
const clients = () => [new CloudFormationClient({ region: 'us-east-1' }), new SecretsManagerClient({ region: 'us-east-1' })] as const;

describe('admin doctor', () => {
  it('right after deploy: the signing key and Twilio credentials are missing, the lab token optional, and no value is printed', async () => {
    stack();
    secret('signing', notFound());
    secret('twilio', JSON.stringify({ account_sid: 'REPLACE_WITH_ACCOUNT_SID', auth_token: 'generated-secret-value' }));
    secret('lab', notFound());
    const report = await doctor('PhoneValidation-prod', ...clients());
    expect(report.ready).toBe(false);
    expect(report.findings.map((f) => [f.check, f.status])).toEqual([
      ['CloudFront download signing key', 'missing'],
      ['Twilio credentials', 'missing'],
      ['Device-lab API token (spam carrier tests)', 'optional'],
    ]);
    expect(report.findings[0]!.detail).toMatch(/DownloadsSigningKeySecret1A2B3C4D: arn:.*signing-AbCdEf is not filled in; put the CloudFront/);
    expect(JSON.stringify(report)).not.toContain('generated-secret-value');
  });

  it('ready once the operator has filled them in', async () => {
    stack();
    secret('signing', pem);
    secret('twilio', JSON.stringify({ account_sid: `AC${'ab'.repeat(16)}`, auth_token: 'tok' }));
    secret('lab', 'lab-token');
    versions('lab', 2);
    const report = await doctor('PhoneValidation-prod', ...clients());
    expect(report).toMatchObject({ stack: 'PhoneValidation-prod', ready: true });
    expect(report.findings.every((f) => f.status === 'ok')).toBe(true);
    expect(JSON.stringify(report)).not.toContain('PRIVATE KEY');
  });

  it('a secret the stack created with a random value (device lab, Telnyx, Trestle) counts only once the operator put one', async () => {
    const outputs = [OUTPUTS[0]!, { OutputKey: 'TelnyxCredentialsSecret', OutputValue: arn('telnyx') }, OUTPUTS[3]!];
    stack(outputs);
    // What CloudFormation generated: a value of the right shape, the only version.
    secret('telnyx', JSON.stringify({ api_key: 'Zk3#generated' }));
    versions('telnyx', 1);
    secret('lab', 'q8$generated-token');
    versions('lab', 1);
    const fresh = await doctor('PhoneValidation-prod', ...clients());
    expect(fresh.ready).toBe(false);
    expect(fresh.findings.map((f) => [f.check, f.status])).toEqual(expect.arrayContaining([['Telnyx API key', 'missing'], ['Device-lab API token (spam carrier tests)', 'optional']]));
    expect(fresh.findings.find((f) => f.check === 'Telnyx API key')!.detail).toMatch(/TelnyxCredentialsSecret: arn:.*telnyx-AbCdEf still holds the random value the stack created it with; put \{"api_key"/);
    expect(JSON.stringify(fresh)).not.toContain('generated');
    sm.reset();
    secret('telnyx', JSON.stringify({ api_key: 'KEY0123' }));
    versions('telnyx', 2);
    secret('lab', 'real-token');
    versions('lab', 2);
    const filled = await doctor('PhoneValidation-prod', ...clients());
    expect(filled.ready).toBe(true);
    expect(filled.findings.filter((f) => f.check !== 'CloudFront download signing key').every((f) => f.status === 'ok')).toBe(true);
  });

  it('a secret it may not read is missing, with the reason', async () => {
    stack(OUTPUTS.slice(0, 2));
    secret('signing', Object.assign(new Error('not authorized to perform secretsmanager:GetSecretValue'), { name: 'AccessDeniedException' }));
    const report = await doctor('PhoneValidation-prod', ...clients());
    expect(report.ready).toBe(false);
    expect(report.findings[0]!.detail).toMatch(/cannot be read \(AccessDeniedException: not authorized/);
  });

  it('a stage without CloudFront downloads is ready, and says its links are S3 presigned', async () => {
    stack([OUTPUTS[0]!]);
    const report = await doctor('PhoneValidation-prod', ...clients());
    expect(report.ready).toBe(true);
    expect(report.findings).toEqual([expect.objectContaining({ check: 'CloudFront download signing key', status: 'optional', detail: expect.stringMatching(/S3 presigned/) })]);
  });

  it('a create that rolled back is not ready; an update that rolled back still serves', async () => {
    stack([OUTPUTS[0]!], 'ROLLBACK_COMPLETE');
    expect((await doctor('PhoneValidation-prod', ...clients())).ready).toBe(false);
    cfn.reset();
    stack([OUTPUTS[0]!], 'UPDATE_ROLLBACK_COMPLETE');
    expect((await doctor('PhoneValidation-prod', ...clients())).ready).toBe(true);
  });
});
