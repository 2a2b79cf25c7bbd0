import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/service-function';
import { App } from 'aws-cdk-lib';
import { Template as AssertTemplate } from 'aws-cdk-lib/assertions';
import { generateKeyPairSync } from 'node:crypto';
import { PhoneValidationStack } from '../../lib/service-stack';
import { TEMPLATE_CONTEXT } from '../support/stack';
import { ACCOUNT, deployedAssembly, REGION, STACK_NAME, type DeployedAssembly, type Template } from './assembly';
import { CfnResolver } from './cfn';
import { roleStatements } from './iam';

// The SDK operations a bundle can call, read from the bundle itself: esbuild keeps only the
// command classes the code reaches, and each names its operation (`extends Command(…, "PutItem", …)`).
const COMMAND_CLASS = /class extends [\w$]+\([\w$]+,[\w$]+,"([A-Z]\w+)",[\w$]+\)\{\}/g;

// Operations of the SDK's own machinery (credential providers, S3 Express sessions, endpoint
// discovery) that a Lambda with role credentials in its environment never calls; and Scan, whose
// command class lib-dynamodb carries although no code of the service imports ScanCommand (checked below).
const SDK_INTERNAL = new Set(['AssumeRole', 'AssumeRoleWithWebIdentity', 'CreateOAuth2Token', 'CreateOAuth2TokenWithIAM', 'CreateToken', 'GetRoleCredentials', 'DescribeEndpoints', 'CreateSession', 'Scan']);

// Operations IAM authorizes under another action's name: HEAD of an object needs s3:GetObject,
// a batch of messages sqs:SendMessage, a copy s3:PutObject on its destination (and s3:GetObject on
// its source, which the endpoint fake records from the request).
const AUTHORIZED_AS: Record<string, string> = { HeadObject: 's3:GetObject', SendMessageBatch: 'sqs:SendMessage', CopyObject: 's3:PutObject' };

const SERVICE_OF: Record<string, string> = {
  GetItem: 'dynamodb', PutItem: 'dynamodb', UpdateItem: 'dynamodb', DeleteItem: 'dynamodb', Query: 'dynamodb', BatchWriteItem: 'dynamodb', BatchGetItem: 'dynamodb', TransactWriteItems: 'dynamodb',
  GetObject: 's3', PutObject: 's3', DeleteObject: 's3', CopyObject: 's3', ListObjectsV2: 's3',
  SendMessage: 'sqs', StartExecution: 'states', GetSecretValue: 'secretsmanager', DescribeSecret: 'secretsmanager', SendTextMessage: 'sms-voice', SendVoiceMessage: 'sms-voice',
  Encrypt: 'kms', Decrypt: 'kms',
};

// What IAM adds beyond the calls: s3:ListBucket lets a missing key answer 404 rather than 403.
const IMPLIED = new Set(['s3:ListBucket']);
// What Lambda's SQS event source mapping calls with the function's role (CDK's grantConsumeMessages).
const POLLER = new Set(['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']);

/**
 * Least privilege held to the artifacts: each function's role allows exactly the operations its
 * bundle can call (no Scan, DeleteItem, BatchGet, DescribeTable, s3:DeleteObject… it cannot call),
 * the optional ones only where the template configures them (a secret, the queue, AWS telephony),
 * and `Resource: "*"` only for actions without resource-level permissions.
 */
describe('IAM least privilege', () => {
  let assembly: DeployedAssembly;
  let resolver: CfnResolver;
  beforeAll(async () => {
    assembly = await deployedAssembly();
    resolver = new CfnResolver(assembly.template);
  }, 300_000);

  it('no service code scans the table', () => {
    let hits = '';
    try {
      hits = execFileSync('grep', ['-rln', '-e', 'ScanCommand', '-e', 'paginateScan', join(PROJECT_ROOT, 'lambdas')], { encoding: 'utf8' }).trim();
    } catch (error) {
      // grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(hits).toBe('');
  }, 10_000);

  /** Grants against bundles for one template (the bundles are the same code whatever the context). */
  function mismatchesOf(template: Template): string[] {
    const mismatches: string[] = [];
    const resolver = new CfnResolver(template);
    const polled = new Set(resolver.ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => String(resolver.resolve((m.Properties as { FunctionName: unknown }).FunctionName))));
    // Lambda sends a failed asynchronous invocation to its on-failure queue with the function's role.
    const withFailureQueue = new Set(resolver.ofType('AWS::Lambda::EventInvokeConfig').filter(([, c]) => (c.Properties as { DestinationConfig?: { OnFailure?: unknown } }).DestinationConfig?.OnFailure).map(([, c]) => String(resolver.resolve((c.Properties as { FunctionName: unknown }).FunctionName))));
    for (const fn of assembly.functions) {
      const bundle = readFileSync(join(fn.assetDir, 'index.mjs'), 'utf8');
      const env = ((template.Resources[fn.logicalId]!.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables ?? {}) as Record<string, unknown>;
      const configured = (op: string): boolean => {
        if (op === 'GetSecretValue') return Object.keys(env).some((k) => k.endsWith('_SECRET_ARN'));
        if (op === 'DescribeSecret') return Object.keys(env).some((k) => k.endsWith('_CREDENTIALS_ARN'));
        if (op === 'SendMessage') return 'WEBHOOK_QUEUE_URL' in env;
        if (op === 'SendMessageBatch') return 'SPAM_QUEUE_URL' in env;
        if (op === 'StartExecution') return 'UPLOAD_STATE_MACHINE_ARN' in env;
        if (op === 'Encrypt' || op === 'Decrypt') return 'SECRETS_KMS_KEY_ARN' in env;
        if (op === 'SendTextMessage' || op === 'SendVoiceMessage') return env.TELEPHONY_PROVIDER === 'aws';
        return true;
      };
      const callable = new Set(
        [...bundle.matchAll(COMMAND_CLASS)]
          .map((m) => m[1]!)
          .filter((op) => !SDK_INTERNAL.has(op) && configured(op))
          .map((op) => AUTHORIZED_AS[op] ?? `${SERVICE_OF[op] ?? 'unknown'}:${op}`),
      );
      const granted = new Set(
        roleStatements(template, resolver, fn.logicalId)
          .flatMap((s) => [s.Action].flat())
          .filter((a) => !a.startsWith('xray:') && !IMPLIED.has(a) && !(polled.has(resolver.physicalName(fn.logicalId)) && POLLER.has(a))),
      );
      if (withFailureQueue.has(resolver.physicalName(fn.logicalId))) callable.add('sqs:SendMessage');
      for (const a of granted) if (!callable.has(a)) mismatches.push(`${fn.logicalId} is granted ${a}, which its bundle never calls`);
      for (const a of callable) if (!granted.has(a)) mismatches.push(`${fn.logicalId} can call ${a} but is not granted it`);
    }
    return mismatches;
  }

  it('each function is allowed exactly the operations its bundle can call', () => {
    expect(mismatchesOf(assembly.template)).toEqual([]);
  });

  it('and so with every option on: CloudFront download links, Twilio, AWS SMS/Voice sending', () => {
    const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const app = new App({
      context: { ...TEMPLATE_CONTEXT, downloadsPublicKey: publicKey, classificationProvider: 'twilio', spamOriginationIdentity: 'arn:aws:sms-voice:us-east-1:111111111111:phone-number/phone-0123' },
    });
    const stack = new PhoneValidationStack(app, STACK_NAME, { env: { account: ACCOUNT, region: REGION } });
    const template = AssertTemplate.fromStack(stack).toJSON() as Template;
    // The options do add grants (signing key, Twilio secret, SMS/Voice), each only where its code runs.
    expect(JSON.stringify(template)).toContain('sms-voice:SendTextMessage');
    expect(mismatchesOf(template)).toEqual([]);
  }, 60_000);

  it.each(['telnyx', 'trestle'])('and so with the %s provider (its API key secret, read by the classify step only)', (provider) => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [], classificationProvider: provider, classificationChain: 'offline-ranges,paid' } });
    const stack = new PhoneValidationStack(app, STACK_NAME, { env: { account: ACCOUNT, region: REGION } });
    const template = AssertTemplate.fromStack(stack).toJSON() as Template;
    expect(JSON.stringify(template)).toContain(`${provider.toUpperCase()}_SECRET_ARN`);
    expect(mismatchesOf(template)).toEqual([]);
  }, 60_000);

  it('grants Resource "*" only for actions without resource-level permissions (X-Ray, vended log delivery)', () => {
    const wide: string[] = [];
    for (const [id, policy] of resolver.ofType('AWS::IAM::Policy')) {
      for (const s of (policy.Properties as { PolicyDocument: { Statement: { Action: string | string[]; Resource: unknown }[] } }).PolicyDocument.Statement) {
        if (![s.Resource].flat().includes('*')) continue;
        for (const action of [s.Action].flat()) {
          if (!/^(xray:(PutTraceSegments|PutTelemetryRecords|GetSamplingRules|GetSamplingTargets)|logs:(CreateLogDelivery|GetLogDelivery|UpdateLogDelivery|DeleteLogDelivery|ListLogDeliveries|PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups))$/.test(action)) {
            wide.push(`${id}: ${action} on *`);
          }
        }
      }
    }
    expect(wide).toEqual([]);
  });
});
