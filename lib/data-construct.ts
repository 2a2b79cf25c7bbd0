import { Aws, Duration, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { AttributeType, Billing, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_KEYS } from '../lambdas/platform/table-definition';
import { acknowledgeBucketFindings } from './nag-acknowledgements';
import type { StageNames } from './stage-names';
import { pinLogicalId } from './stateful-ids';

/**
 * The first group of the stack's id (`arn:…:stack/<name>/<uuid>`): a token CloudFormation fills in,
 * new at every creation of the stack, known before any resource exists.
 */
export function stackIdPart(): string {
  return Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));
}

/**
 * The files bucket's name (lib/stage-names.ts): built from the stack's name and the AWS::AccountId
 * and AWS::StackId pseudo-parameters. Being known without the bucket itself, it can be named by
 * resources the bucket depends on: the console's CSP names exactly this bucket while the bucket's
 * CORS rule names the console's distribution (docs/console.md). A stack created again (after a
 * teardown, or a first deploy rolled back) gets a new name, so the retained bucket never blocks it.
 */
export function filesBucketName(stack: Stack, names: StageNames): string {
  if (Token.isUnresolved(stack.stackName)) throw new Error('The files bucket is named after the stack: the stack needs a concrete name');
  return names.filesBucket(Aws.ACCOUNT_ID, stackIdPart());
}

export interface DataConstructProps {
  names: StageNames;
  /** DynamoDB deletion protection (stage config tableDeletionProtection). */
  tableDeletionProtection: boolean;
  /** Days an earlier version of a files-bucket object is kept (stage config retention.noncurrentDays). */
  noncurrentDays: number;
  /** An AWS Backup plan for the table (stage config backup). */
  backup: { enabled: boolean; hourUtc: number; retentionDays: number };
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
  readonly backupPlan?: BackupPlan;

  constructor(scope: Construct, id: string, props: DataConstructProps) {
    super(scope, id);
    // What holds data is kept when the stack is deleted or the resource replaced, but not when the
    // operation that created it rolls back (CloudFormation RetainExceptOnCreate): a failed first
    // deploy leaves nothing behind that would stop the retry (docs/deploy.md, Tear down).
    const keep = RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE_KEYS.ttlAttribute,
      encryption: TableEncryptionV2.awsManagedKey(),
      deletionProtection: props.tableDeletionProtection,
      removalPolicy: keep,
      globalSecondaryIndexes: TABLE_KEYS.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      })),
    });
    pinLogicalId(this.table, 'table');

    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Phone validation: seals webhook and callback signing secrets',
      enableKeyRotation: true,
      removalPolicy: keep,
    });
    pinLogicalId(this.secretsKey, 'secretsKey');

    const bucketDefaults = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: keep,
    };
    const filesName = filesBucketName(Stack.of(this), props.names);
    this.filesBucketOrigin = `https://${filesName}.s3.${Aws.REGION}.amazonaws.com`;
    this.filesBucket = new Bucket(this, 'Files', {
      ...bucketDefaults,
      bucketName: filesName,
      // Versioned: an object overwritten or deleted by mistake can be restored for noncurrentDays;
      // the expiry rules of uploads/ and staging/ (UploadsConstruct) leave delete markers, which
      // go once no earlier version is left.
      versioned: true,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'noncurrent', noncurrentVersionExpiration: Duration.days(props.noncurrentDays), expiredObjectDeleteMarker: true },
      ],
    });
    pinLogicalId(this.filesBucket, 'filesBucket');
    // Spec: screenshots are retained 7 days.
    this.screenshotsBucket = new Bucket(this, 'Screenshots', {
      ...bucketDefaults,
      lifecycleRules: [{ expiration: Duration.days(7) }],
    });
    pinLogicalId(this.screenshotsBucket, 'screenshotsBucket');
    for (const bucket of [this.filesBucket, this.screenshotsBucket]) acknowledgeBucketFindings(bucket);
    if (props.backup.enabled) this.backupPlan = this.backupTable(props.names, props.backup);
  }

  /**
   * A daily AWS Backup of the table, kept retentionDays, in a vault of its own (point-in-time
   * recovery covers 35 days; a backup plan keeps copies longer and apart from the table).
   */
  private backupTable(names: StageNames, backup: { hourUtc: number; retentionDays: number }): BackupPlan {
    const vault = new BackupVault(this, 'BackupVault', { backupVaultName: names.backupVault(stackIdPart()), removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE });
    pinLogicalId(vault, 'backupVault');
    const plan = new BackupPlan(this, 'BackupPlan', { backupPlanName: names.backupPlan, backupVault: vault });
    plan.addRule(new BackupPlanRule({ ruleName: 'Daily', scheduleExpression: Schedule.cron({ minute: '0', hour: String(backup.hourUtc) }), deleteAfter: Duration.days(backup.retentionDays) }));
    const selection = plan.addSelection('Table', { resources: [BackupResource.fromDynamoDbTable(this.table)] });
    Validations.of(selection).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      reason: 'AWS Backup\'s own service role policy for taking backups, on the role the plan\'s selection gives AWS Backup.',
    });
    return plan;
  }
}
