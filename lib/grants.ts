import { Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { TABLE_KEYS } from '../lambdas/platform/table-definition';
import { READ_ACTIONS, type TableAccess } from './table-access';
import { INDEX_KEY_PATTERNS, TABLE_KEY_PATTERNS } from './table-keys';

// Least privilege, one function at a time: each grant names the actions a function's code calls
// (test/deployed/ checks every grant against what its bundle can call and what the walk through
// the deployed artifacts did), table grants down to the partition keys (lib/table-access.ts), instead of the broad grant* helpers (Scan, DeleteItem, BatchGet,
// DescribeTable, s3:List*, s3:DeleteObject* … for every function).

/** The DynamoDB operations the service's code uses (it never scans and has no transactions). */

/**
 * `access.actions` on the items whose partition key matches one of `access.keys`
 * (lib/table-access.ts), by IAM's dynamodb:LeadingKeys: on the table for its own partition
 * patterns; Query also on each index for that index's partition patterns among them (a Query on
 * an index carries the index's partition key, and that is the value LeadingKeys holds). A batch
 * (BatchGetItem, BatchWriteItem) is allowed only when every key in it matches (ForAllValues).
 * A Scan carries no leading key, so ForAllValues would pass it: it is never granted.
 */
export function grantTable(fn: LambdaFunction, table: ITableV2, access: TableAccess): void {
  const unknown = access.keys.filter((k) => !TABLE_KEY_PATTERNS.has(k) && !TABLE_KEYS.indexes.some((i) => INDEX_KEY_PATTERNS[i.name].has(k)));
  if (unknown.length) throw new Error(`${fn.node.path}: ${unknown.join(', ')} is no partition-key pattern of the table (lib/table-keys.ts)`);
  const unlisted = (access.readOnly ?? []).filter((k) => !access.keys.includes(k));
  if (unlisted.length) throw new Error(`${fn.node.path}: read-only ${unlisted.join(', ')} is not among its keys`);
  const readOnly = new Set(access.readOnly ?? []);
  const tableKeys = access.keys.filter((k) => TABLE_KEY_PATTERNS.has(k));
  const writable = tableKeys.filter((k) => !readOnly.has(k));
  if (tableKeys.length && writable.length === tableKeys.length) {
    fn.addToRolePolicy(leadingKeysStatement(access.actions.map((a) => `dynamodb:${a}`), table.tableArn, tableKeys));
  } else if (tableKeys.length) {
    // Reads on every partition in one statement (a BatchGetItem spanning the key, its organization
    // and its user must match one statement whole: ForAllValues); writes only where it writes.
    const reads = access.actions.filter((a) => READ_ACTIONS.includes(a));
    const writes = access.actions.filter((a) => !READ_ACTIONS.includes(a));
    if (reads.length) fn.addToRolePolicy(leadingKeysStatement(reads.map((a) => `dynamodb:${a}`), table.tableArn, tableKeys));
    if (writes.length && writable.length) fn.addToRolePolicy(leadingKeysStatement(writes.map((a) => `dynamodb:${a}`), table.tableArn, writable));
  }
  if (!access.actions.includes('Query')) return;
  for (const { name } of TABLE_KEYS.indexes) {
    const indexKeys = access.keys.filter((k) => INDEX_KEY_PATTERNS[name].has(k));
    if (indexKeys.length) fn.addToRolePolicy(leadingKeysStatement(['dynamodb:Query'], `${table.tableArn}/index/${name}`, indexKeys));
  }
}

const leadingKeysStatement = (actions: string[], resource: string, keys: readonly string[]): PolicyStatement =>
  new PolicyStatement({ actions, resources: [resource], conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...keys].sort() } } });

/**
 * Object access under key prefixes of one bucket. Readers also get s3:ListBucket on the bucket:
 * without it S3 answers a missing key with 403 instead of 404, and the code
 * reads "not there yet" (a slice not built, a chunk result not written) as a 404.
 */
export function grantObjects(fn: LambdaFunction, bucket: IBucket, access: { read?: readonly string[]; write?: readonly string[]; delete?: readonly string[] }): void {
  const objects = (prefixes: readonly string[]) => prefixes.map((p) => bucket.arnForObjects(`${p}*`));
  if (access.read?.length) {
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: objects(access.read) }));
    // No s3:prefix condition: a GetObject carries no prefix, so a conditioned grant would not count.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  }
  if (access.write?.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: objects(access.write) }));
  if (access.delete?.length) fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: objects(access.delete) }));
  for (const prefix of new Set([...(access.read ?? []), ...(access.write ?? []), ...(access.delete ?? [])])) {
    Validations.of(fn).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${logicalIdOf(bucket)}.Arn>/${prefix}*]`,
      reason: `Objects under ${prefix} of the service's own files bucket (keys are per organization and upload, made at run time).`,
    });
  }
}

/** The logical id cdk-nag names a resource by in its findings. */
export function logicalIdOf(resource: IConstruct): string {
  const stack = Stack.of(resource);
  return stack.resolve(stack.getLogicalId(resource.node.defaultChild as CfnElement)) as string;
}

/** Reading one secret's value (DescribeSecret and the rest are never called). */
export function grantSecretValue(fn: LambdaFunction, secret: ISecret): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }));
}

/** Whether a secret was filled in (its versions), never its value. */
export function grantSecretDescribe(fn: LambdaFunction, secret: ISecret): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:DescribeSecret'], resources: [secret.secretArn] }));
}

/** Sending to one queue (the code never reads attributes or resolves URLs). */
export function grantSendMessage(fn: LambdaFunction, queue: IQueue): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] }));
}

/** The account's own End User Messaging SMS and Voice identities (for an origination given as a bare number or sender id). */
export const ownSmsVoiceIdentities = (scope: LambdaFunction): string => {
  const stack = Stack.of(scope);
  return `arn:${stack.partition}:sms-voice:${stack.region}:${stack.account}:*`;
};

/**
 * One use of the secrets key: Encrypt for the functions that create signing secrets, Decrypt for
 * those that sign with them; never both by default (CDK's grantEncrypt would add ReEncrypt* and
 * GenerateDataKey*, which the code never calls). The key's ARN goes in the function's environment.
 */
export function grantSecretsKey(fn: LambdaFunction, key: IKey, use: 'Encrypt' | 'Decrypt'): void {
  fn.addEnvironment('SECRETS_KMS_KEY_ARN', key.keyArn);
  fn.addToRolePolicy(new PolicyStatement({ actions: [`kms:${use}`], resources: [key.keyArn] }));
}
