import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../lambdas/platform/table-definition';
import { acknowledgeBucketFindings } from './nag-acknowledgements';

/** The single table and the buckets, from the same key definitions the code and local runtime use. */
export class DataConstruct extends Construct {
  readonly table: TableV2;
  readonly filesBucket: Bucket;
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
    this.filesBucket = new Bucket(this, 'Files', {
      ...bucketDefaults,
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
