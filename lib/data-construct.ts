import { createHash } from 'node:crypto';
import { Aws, Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../lambdas/platform/table-definition';
import { acknowledgeBucketFindings } from './nag-acknowledgements';

/** Bucket names are at most 63 characters; the account id takes 12 and the longest region 14 (16 kept). */
const MAX_STACK_PART = 63 - '-files-'.length - 12 - 1 - 16;

/**
 * The files bucket's name: `<stack>-files-<account>-<region>`, built from the stack's name (a
 * synth-time string, lowercased; a long one is cut and given a hash of the whole name) and the
 * AWS::AccountId and AWS::Region pseudo-parameters. Being known without the bucket itself, it can
 * be named by resources the bucket depends on: the console's CSP names exactly this bucket while
 * the bucket's CORS rule names the console's distribution (docs/console.md).
 */
export function filesBucketName(stack: Stack): string {
  if (Token.isUnresolved(stack.stackName)) throw new Error('The files bucket is named after the stack: the stack needs a concrete name');
  let part = stack.stackName.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+$/, '');
  if (part.length > MAX_STACK_PART) part = `${part.slice(0, MAX_STACK_PART - 7).replace(/-+$/, '')}-${createHash('sha256').update(stack.stackName).digest('hex').slice(0, 6)}`;
  // S3 reserves these prefixes.
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(part)) part = `pv-${part}`.slice(0, MAX_STACK_PART);
  return `${part}-files-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}

/** The single table and the buckets, from the same key definitions the code and local runtime use. */
export class DataConstruct extends Construct {
  readonly table: TableV2;
  readonly filesBucket: Bucket;
  /**
   * `https://<files bucket>.s3.<region>.amazonaws.com`: where the SDK's presigned POSTs send
   * browsers (virtual-hosted, regional). Built from the name, not from the bucket resource.
   */
  readonly filesBucketOrigin: string;
  readonly screenshotsBucket: Bucket;
  /**
   * Seals webhook and callback signing secrets (docs/webhooks.md, Secrets at rest). Customer
   * managed so that only the functions granted on it can encrypt or decrypt, whatever their table
   * access; rotated yearly by KMS (old key material stays, so older secrets still open). Retained
   * with the table: deleting it would make every stored secret unreadable.
   */
  readonly secretsKey: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      encryption: TableEncryptionV2.awsManagedKey(),
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });

    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Phone validation: seals webhook and callback signing secrets',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const bucketDefaults = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    const filesName = filesBucketName(Stack.of(this));
    this.filesBucketOrigin = `https://${filesName}.s3.${Aws.REGION}.amazonaws.com`;
    this.filesBucket = new Bucket(this, 'Files', {
      ...bucketDefaults,
      bucketName: filesName,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    // Spec: screenshots are retained 7 days.
    this.screenshotsBucket = new Bucket(this, 'Screenshots', {
      ...bucketDefaults,
      lifecycleRules: [{ expiration: Duration.days(7) }],
    });
    for (const bucket of [this.filesBucket, this.screenshotsBucket]) acknowledgeBucketFindings(bucket);
  }
}
