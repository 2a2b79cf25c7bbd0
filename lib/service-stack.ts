import { CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ROUTES } from '../lambdas/api/routes';
import { ApiConstruct } from './api-construct';
import { BillingConstruct } from './billing-construct';
import { DataConstruct } from './data-construct';
import { acknowledgeNagFindings } from './nag-acknowledgements';
import { WebhooksConstruct } from './webhooks-construct';
import { UploadsConstruct } from './uploads-construct';
import { ContactsConstruct } from './contacts-construct';
import { RecoveryConstruct } from './recovery-construct';
import { DownloadsConstruct } from './downloads-construct';
import { SpamConstruct } from './spam-construct';
import { ConsoleConstruct } from './console-construct';

/**
 * The whole service in one stack. Feature constructs (uploads pipeline, webhook delivery, spam
 * monitoring, contact pooling) are added below and receive the shared table, buckets and API.
 */
export class PhoneValidationStack extends Stack {
  readonly data: DataConstruct;
  readonly api: ApiConstruct;
  readonly webhooks: WebhooksConstruct;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.data = new DataConstruct(this, 'Data');
    const environment = {
      TABLE_NAME: this.data.table.tableName,
      FILES_BUCKET: this.data.filesBucket.bucketName,
      SCREENSHOTS_BUCKET: this.data.screenshotsBucket.bucketName,
      CLASSIFICATION_PROVIDER: this.node.tryGetContext('classificationProvider') ?? 'offline',
    };
    this.api = new ApiConstruct(this, 'Api', { routes: ROUTES, environment });
    for (const fn of this.api.functions.values()) this.data.table.grantReadWriteData(fn);
    const cursorKey = this.grantCursorKey();

    new BillingConstruct(this, 'Billing', { table: this.data.table, environment });
    // Features whose workers emit events call this.webhooks.grantEmit(fn).
    this.webhooks = new WebhooksConstruct(this, 'Webhooks', { table: this.data.table, environment, producers: this.api.functions.values() });

    const grantEmit = (fn: LambdaFunction) => this.webhooks.grantEmit(fn);
    const uploads = new UploadsConstruct(this, 'Uploads', { table: this.data.table, filesBucket: this.data.filesBucket, environment, grantEmit });
    if (environment.CLASSIFICATION_PROVIDER === 'twilio') {
      // Filled in by the operator after deploy: {"account_sid": "...", "auth_token": "..."}.
      const twilio = new Secret(this, 'TwilioCredentials', { description: 'Twilio Lookup credentials: JSON {account_sid, auth_token}' });
      Validations.of(twilio).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Twilio auth tokens are rotated in the Twilio console; there is no rotation Lambda for a third-party credential.' });
      for (const fn of uploads.steps) {
        fn.addEnvironment('TWILIO_SECRET_ARN', twilio.secretArn);
        twilio.grantRead(fn);
      }
    }
    const uploadsApi = this.api.functions.get('uploads')!;
    // With the operator's CloudFront public key, download links are CloudFront signed URLs that
    // outlive any Lambda session (docs/uploads.md); without it, S3 presigned URLs.
    const downloadsPublicKey = this.node.tryGetContext('downloadsPublicKey') as string | undefined;
    const recovery = new RecoveryConstruct(this, 'Recovery', {
      table: this.data.table,
      environment,
      grantUploads: (fn) => {
        this.data.filesBucket.grantReadWrite(fn);
        uploads.grantStart(fn);
      },
      grantEmit,
    });
    if (downloadsPublicKey) {
      const downloads = new DownloadsConstruct(this, 'Downloads', { filesBucket: this.data.filesBucket, publicKeyPem: downloadsPublicKey });
      for (const fn of [uploadsApi, ...uploads.steps, recovery.job]) downloads.grantSign(fn);
    }
    this.data.filesBucket.grantReadWrite(uploadsApi);
    uploads.grantStart(uploadsApi);
    const contacts = new ContactsConstruct(this, 'Contacts', {
      table: this.data.table,
      environment,
      poolMinutes: Number(this.node.tryGetContext('contactPoolMinutes') ?? 5),
      grantStartUploads: (fn) => {
        this.data.filesBucket.grantReadWrite(fn);
        uploads.grantStart(fn);
      },
      grantEmit,
    });
    void contacts;

    new SpamConstruct(this, 'Spam', { table: this.data.table, screenshots: this.data.screenshotsBucket, environment, api: this.api.functions.get('spam')!, webhooks: this.webhooks });

    // The web console (docs/console.md): user pool, JWT-authorized /console/api routes, CloudFront.
    new ConsoleConstruct(this, 'Console', {
      api: this.api.api,
      table: this.data.table,
      environment,
      grantUploads: (fn) => {
        this.data.filesBucket.grantReadWrite(fn);
        uploads.grantStart(fn);
      },
      grantEmit,
      grantCursorKey: (fn) => {
        fn.addEnvironment('CURSOR_SECRET_ARN', cursorKey.secretArn);
        cursorKey.grantRead(fn);
      },
    });

    acknowledgeNagFindings(this);
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.filesBucket.bucketName });
  }

  /**
   * Pagination cursors are encrypted and authenticated with a key generated at deploy time
   * (docs/architecture.md); only the functions that serve a list with a `cursor` read it.
   */
  private grantCursorKey(): Secret {
    const key = new Secret(this, 'CursorKey', {
      description: 'Key that encrypts and authenticates pagination cursors (generated at deploy)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
    });
    Validations.of(key).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the cursor key only makes outstanding next_cursor values invalid (400; clients restart from the first page); it is rotated by putting a new value, without a rotation Lambda.',
    });
    const paginated = ROUTES.filter((route) => {
      const shape = (route.request?.query as { shape?: Record<string, unknown> } | undefined)?.shape;
      return Boolean(shape && 'cursor' in shape);
    });
    for (const name of new Set(paginated.map((route) => route.fn))) {
      const fn = this.api.functions.get(name)!;
      fn.addEnvironment('CURSOR_SECRET_ARN', key.secretArn);
      key.grantRead(fn);
    }
    return key;
  }
}
