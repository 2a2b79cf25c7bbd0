import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/service-function';

import { Template as AssertTemplate } from 'aws-cdk-lib/assertions';
import { generateKeyPairSync } from 'node:crypto';
import { PhoneValidationStack } from '../../lib/service-stack';
import { testApp } from '../support/stack';
import { ACCOUNT, assetCode, deployedAssembly, REGION, STACK_NAME, SYNTH_WAIT_MS, type DeployedAssembly, type Template } from './assembly';
import { CfnResolver } from './cfn';
import { evaluateCalls, isAllowed, roleStatements } from './iam';
import { keyPatternsOfBundle } from './bundle-keys';
import { INDEX_KEY_PATTERNS, TABLE_KEY_PATTERNS } from '../../lib/table-keys';
import { TABLE_KEYS } from '../../lambdas/platform/table-definition';
import { API_TABLE_ACCESS, READ_ACTIONS, type TableAction } from '../../lib/table-access';

// The SDK operations a bundle can call, read from the bundle itself: esbuild keeps only the
// command classes the code reaches, and each names its operation (`extends Command(…, "PutItem", …)`).
const COMMAND_CLASS = /class extends [\w$]+\([\w$]+,[\w$]+,"([A-Z]\w+)",[\w$]+\)\{\}/g;

// Operations of the SDK's own machinery (credential providers, S3 Express sessions, endpoint
// discovery) that a Lambda with role credentials in its environment never calls; and Scan, whose
// command class lib-dynamodb carries although no code of the service imports ScanCommand (checked below).
const SDK_INTERNAL = new Set(['AssumeRole', 'AssumeRoleWithWebIdentity', 'CreateOAuth2Token', 'CreateOAuth2TokenWithIAM', 'CreateToken', 'GetRoleCredentials', 'DescribeEndpoints', 'CreateSession', 'Scan']);

// Operations IAM authorizes under another action's name: HEAD of an object needs s3:GetObject,
// a batch of messages sqs:SendMessage, a copy s3:PutObject on its destination (and s3:GetObject on
// its source, which the endpoint fake records from the request), and a multipart upload's start,
// parts and completion s3:PutObject (Finalize writes its files a part at a time).
/**
 * Partitions a function reaches only by keys found in items (no literal of them in its bundle):
 * recovery ends a contact create's idempotency claim it finds on gsi3 (RECOVER#ContactCreate) by
 * the claim item's own key.
 */
const REACHED_THROUGH_DATA: Record<string, readonly string[]> = { RecoveryJob: ['IDEMP#*'] };

/**
 * Partitions an API function (or the classify step) only reads (lib/table-access.ts `readOnly`): there its write
 * operations must be denied. That it never writes them is what the walk's calls show.
 */
const READ_ONLY: Record<string, readonly string[]> = {
  ...Object.fromEntries(Object.entries(API_TABLE_ACCESS).map(([name, access]) => [`Api${name[0]!.toUpperCase()}${name.slice(1)}Function`, access.readOnly ?? []])),
  // Stated here, not read from lib: the step that parses a provider's answers reads its upload and
  // may not write it (docs/deployment.md, Permissions per function).
  UploadsClassifyChunk: ['UPLOAD#*'],
};

const AUTHORIZED_AS: Record<string, string> = {
  HeadObject: 's3:GetObject',
  // The console's processing progress lists an upload's chunks (lambdas/platform/blob.ts namesUnder).
  ListObjectsV2: 's3:ListBucket',
  SendMessageBatch: 'sqs:SendMessage',
  CopyObject: 's3:PutObject',
  CreateMultipartUpload: 's3:PutObject',
  UploadPart: 's3:PutObject',
  CompleteMultipartUpload: 's3:PutObject',
};

const SERVICE_OF: Record<string, string> = {
  GetItem: 'dynamodb', PutItem: 'dynamodb', UpdateItem: 'dynamodb', DeleteItem: 'dynamodb', Query: 'dynamodb', BatchWriteItem: 'dynamodb', BatchGetItem: 'dynamodb', TransactWriteItems: 'dynamodb',
  GetObject: 's3', PutObject: 's3', DeleteObject: 's3', CopyObject: 's3', ListObjectsV2: 's3', CreateMultipartUpload: 's3', UploadPart: 's3', CompleteMultipartUpload: 's3',
  SendMessage: 'sqs', StartExecution: 'states', GetSecretValue: 'secretsmanager', DescribeSecret: 'secretsmanager', SendTextMessage: 'sms-voice', SendVoiceMessage: 'sms-voice',
  Encrypt: 'kms', Decrypt: 'kms',
  AdminCreateUser: 'cognito-idp', AdminGetUser: 'cognito-idp',
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
  }, SYNTH_WAIT_MS);

  it('no service code scans the table', () => {
    let hits = '';
    try {
      hits = execFileSync('grep', ['-rln', '-e', 'ScanCommand', '-e', 'paginateScan', join(PROJECT_ROOT, 'lambdas')], { encoding: 'utf8' }).trim();
    } catch (error) {
      // grep exits 1 when nothing matches.
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(hits).toBe('');
  });

  /** Grants against bundles for one template (the bundles are the same code whatever the context). */
  function mismatchesOf(template: Template): string[] {
    const mismatches: string[] = [];
    const resolver = new CfnResolver(template);
    const polled = new Set(resolver.ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => String(resolver.resolve((m.Properties as { FunctionName: unknown }).FunctionName))));
    // Lambda sends a failed asynchronous invocation to its on-failure queue with the function's role.
    const withFailureQueue = new Set(resolver.ofType('AWS::Lambda::EventInvokeConfig').filter(([, c]) => (c.Properties as { DestinationConfig?: { OnFailure?: unknown } }).DestinationConfig?.OnFailure).map(([, c]) => String(resolver.resolve((c.Properties as { FunctionName: unknown }).FunctionName))));
    for (const fn of assembly.functions) {
      const bundle = assetCode(fn);
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
      const actions = roleStatements(template, resolver, fn.logicalId).flatMap((s) => [s.Action].flat());
      const granted = new Set(actions.filter((a) => !a.startsWith('xray:') && !IMPLIED.has(a) && !(polled.has(resolver.physicalName(fn.logicalId)) && POLLER.has(a))));
      // An implied action a bundle does call (a listing: s3:ListBucket) is granted when the role has it.
      for (const a of actions) if (IMPLIED.has(a) && callable.has(a)) granted.add(a);
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
    const app = testApp({ downloadsPublicKey: publicKey, classificationProvider: 'twilio', spamOriginationIdentity: 'arn:aws:sms-voice:us-east-1:111111111111:phone-number/phone-0123' });
    const stack = new PhoneValidationStack(app, STACK_NAME, { env: { account: ACCOUNT, region: REGION } });
    const template = AssertTemplate.fromStack(stack).toJSON() as Template;
    // The options do add grants (signing key, Twilio secret, SMS/Voice), each only where its code runs.
    expect(JSON.stringify(template)).toContain('sms-voice:SendTextMessage');
    expect(mismatchesOf(template)).toEqual([]);
  });

  it.each(['telnyx', 'trestle'])('and so with the %s provider (its API key secret, read by the classify step only)', (provider) => {
    const app = testApp({ classificationProvider: provider, classificationChain: 'offline-ranges,paid' });
    const stack = new PhoneValidationStack(app, STACK_NAME, { env: { account: ACCOUNT, region: REGION } });
    const template = AssertTemplate.fromStack(stack).toJSON() as Template;
    expect(JSON.stringify(template)).toContain(`${provider.toUpperCase()}_SECRET_ARN`);
    expect(mismatchesOf(template)).toEqual([]);
  });

  /**
   * Table grants against bundles, item by item: every DynamoDB statement is conditioned on
   * dynamodb:LeadingKeys; the partition-key patterns granted (table and indexes together) are
   * exactly those the bundle's key builders spell; and, through the same evaluator the walk uses,
   * every operation the bundle can call is allowed on a key of each of its table patterns (Query
   * also on each index holding one of its index patterns), and denied on every other partition.
   */
  function keyMismatchesOf(template: Template): string[] {
    const mismatches: string[] = [];
    const resolver = new CfnResolver(template);
    const tableArn = String(resolver.getAtt(resolver.ofType('AWS::DynamoDB::GlobalTable')[0]![0], 'Arn'));
    const indexArn = (name: string) => `${tableArn}/index/${name}`;
    const sample = (pattern: string) => pattern.replace('*', 'x1');
    for (const fn of assembly.functions) {
      // Everything the function can load: its entry and the chunks it imports (code splitting).
      const bundle = assetCode(fn);
      const built = keyPatternsOfBundle(bundle);
      // Partitions a function reaches by keys it reads from items, not by literals of its own.
      for (const [prefix, keys] of Object.entries(REACHED_THROUGH_DATA)) if (fn.logicalId.startsWith(prefix)) for (const k of keys) built.add(k);
      const ops = new Set([...bundle.matchAll(COMMAND_CLASS)].map((m) => m[1]!).filter((op) => SERVICE_OF[op] === 'dynamodb'));
      const statements = roleStatements(template, resolver, fn.logicalId);
      const granted = new Set<string>();
      for (const s of statements) {
        if (![s.Action].flat().some((a) => a.startsWith('dynamodb:'))) continue;
        const keys = s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
        if (!keys) {
          mismatches.push(`${fn.logicalId} has a DynamoDB grant without dynamodb:LeadingKeys`);
          continue;
        }
        for (const resource of [s.Resource].flat()) {
          const index = TABLE_KEYS.indexes.find((i) => resource === indexArn(i.name));
          const known = index ? INDEX_KEY_PATTERNS[index.name] : resource === tableArn ? TABLE_KEY_PATTERNS : null;
          for (const k of [keys].flat()) {
            if (!known?.has(k)) mismatches.push(`${fn.logicalId} is granted ${k} on ${resource}, which holds no such partition`);
            granted.add(k);
          }
        }
      }
      if (!ops.size) continue;
      const readOnly = new Set(Object.entries(READ_ONLY).find(([prefix]) => fn.logicalId.startsWith(prefix))?.[1] ?? []);
      for (const k of granted) if (!built.has(k)) mismatches.push(`${fn.logicalId} is granted partitions ${k}, which its bundle never builds`);
      for (const k of built) if (!granted.has(k)) mismatches.push(`${fn.logicalId} builds keys ${k} but is not granted them`);
      for (const op of ops) {
        if (op === 'Scan' || op === 'TransactWriteItems') continue; // never granted (checked above by the action list)
        const writes = !READ_ACTIONS.includes(op as TableAction);
        for (const k of built) {
          const allowed = TABLE_KEY_PATTERNS.has(k) && isAllowed(statements, `dynamodb:${op}`, tableArn, { leadingKeys: [sample(k)] });
          if (writes && readOnly.has(k)) {
            if (allowed) mismatches.push(`${fn.logicalId} can ${op} ${sample(k)}, a partition it only reads`);
          } else if (TABLE_KEY_PATTERNS.has(k) && !allowed) mismatches.push(`${fn.logicalId} cannot ${op} ${sample(k)}`);
          if (op !== 'Query') continue;
          for (const { name } of TABLE_KEYS.indexes) {
            if (INDEX_KEY_PATTERNS[name].has(k) && !isAllowed(statements, 'dynamodb:Query', indexArn(name), { leadingKeys: [sample(k)] })) mismatches.push(`${fn.logicalId} cannot Query ${name} for ${sample(k)}`);
          }
        }
        if (op === 'Query') {
          for (const { name } of TABLE_KEYS.indexes) {
            for (const other of INDEX_KEY_PATTERNS[name]) {
              if (built.has(other) || [...built].some((k) => k.endsWith('*') && other.startsWith(k.slice(0, -1)))) continue;
              if (isAllowed(statements, 'dynamodb:Query', indexArn(name), { leadingKeys: [sample(other)] })) mismatches.push(`${fn.logicalId} can Query ${name} for ${sample(other)}, a partition its bundle never builds`);
            }
          }
        }
        for (const other of TABLE_KEY_PATTERNS) {
          if (built.has(other)) continue;
          // A key of another family (`UPLOAD#x1` is not `UPLOAD#WATCH`'s, which is an index partition).
          if (isAllowed(statements, `dynamodb:${op}`, tableArn, { leadingKeys: [sample(other)] })) mismatches.push(`${fn.logicalId} can ${op} ${sample(other)}, a partition its bundle never builds`);
        }
        // A batch with one key outside the function's partitions is refused whole (ForAllValues).
        const own = [...built].find((k) => TABLE_KEY_PATTERNS.has(k));
        const foreign = [...TABLE_KEY_PATTERNS].find((k) => !built.has(k));
        if (op.startsWith('Batch') && own && foreign && isAllowed(statements, `dynamodb:${op}`, tableArn, { leadingKeys: [sample(own), sample(foreign)] })) {
          mismatches.push(`${fn.logicalId} can ${op} a batch holding ${sample(foreign)}`);
        }
      }
    }
    return mismatches;
  }

  it('each function reaches only the partitions its bundle builds keys for (dynamodb:LeadingKeys)', () => {
    expect(keyMismatchesOf(assembly.template)).toEqual([]);
  });

  it('fails on a grant narrowed by one partition, and on a grant widened to every partition', () => {
    const credits = assembly.functions.find((f) => f.logicalId.startsWith('ApiCreditsFunction'))!.logicalId;
    const narrowed = structuredClone(assembly.template);
    const widened = structuredClone(assembly.template);
    const tableStatements = (template: Template) =>
      Object.values(template.Resources)
        .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r).includes(`"${(template.Resources[credits]!.Properties as { Role: { 'Fn::GetAtt': [string] } }).Role['Fn::GetAtt'][0]}"`))
        .flatMap((r) => (r.Properties as { PolicyDocument: { Statement: { Action: unknown; Resource: unknown; Condition?: Record<string, Record<string, string[]>> }[] } }).PolicyDocument.Statement)
        .filter((s) => JSON.stringify(s.Action).includes('dynamodb:GetItem'));
    for (const s of tableStatements(narrowed)) s.Condition!['ForAllValues:StringLike']!['dynamodb:LeadingKeys'] = s.Condition!['ForAllValues:StringLike']!['dynamodb:LeadingKeys']!.filter((k) => k !== 'ORG#*');
    for (const s of tableStatements(widened)) delete s.Condition;
    // ORG#* stays granted on the indexes (ORG#<org>#KEYS …), so the table's own operations are what fail.
    // (UpdateItem is not among them: the credits function only reads the organization's partition.)
    expect(keyMismatchesOf(narrowed)).toEqual([`${credits} cannot BatchGetItem ORG#x1`, `${credits} cannot GetItem ORG#x1`, `${credits} cannot Query ORG#x1`]);
    expect(keyMismatchesOf(widened)).toContain(`${credits} has a DynamoDB grant without dynamodb:LeadingKeys`);
    // A partition it only reads, granted a write as well: the balance would be writable again.
    const writing = structuredClone(assembly.template);
    for (const s of tableStatements(writing)) if (!JSON.stringify(s.Action).includes('dynamodb:UpdateItem')) s.Action = [...[s.Action as string].flat(), 'dynamodb:UpdateItem'];
    expect(keyMismatchesOf(writing)).toEqual([`${credits} can UpdateItem ORG#x1, a partition it only reads`, `${credits} can UpdateItem USER#x1, a partition it only reads`]);
    // The walk's check denies the same call: the credits function reading a balance.
    const call = { fn: credits, service: 'dynamodb', action: 'dynamodb:GetItem', resources: [String(resolver.getAtt(resolver.ofType('AWS::DynamoDB::GlobalTable')[0]![0], 'Arn'))], leadingKeys: ['ORG#org_1'] };
    expect(evaluateCalls(assembly.template, resolver, [call]).denied).toEqual([]);
    expect(evaluateCalls(narrowed, new CfnResolver(narrowed), [call]).denied).toEqual([{ fn: credits, action: 'dynamodb:GetItem', resource: call.resources[0], leadingKeys: ['ORG#org_1'] }]);
  });

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
