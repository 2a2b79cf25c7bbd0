import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ROUTES } from '../lambdas/api/routes';
import { ApiConstruct } from './api-construct';
import { BillingConstruct } from './billing-construct';
import { DataConstruct } from './data-construct';
import { WebhooksConstruct } from './webhooks-construct';
import { UploadsConstruct } from './uploads-construct';
import { ContactsConstruct } from './contacts-construct';
import { RecoveryConstruct } from './recovery-construct';
import { DownloadsConstruct } from './downloads-construct';
import { SpamConstruct } from './spam-construct';
import { MonitoringConstruct } from './monitoring-construct';
import { grantObjects, grantSecretDescribe, grantSecretValue, grantSecretsKey, grantTable, type TableAction } from './grants';
import type { ApiFunctionName } from '../lambdas/platform/http/route-spec';
import { parseStageConfig, type StageConfig } from './stage-config';

/**
 * The table operations each API function's code calls (test/deployed/ holds each to its bundle):
 * platform and credits only read, besides the rate limiter's bucket updates.
 */
const API_TABLE_ACCESS: Record<ApiFunctionName, TableAction[]> = {
  platform: ['GetItem', 'Query', 'UpdateItem'],
  credits: ['GetItem', 'Query', 'UpdateItem'],
  uploads: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
  contacts: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
  webhooks: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
  spam: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
};

/** API functions whose requests publish events (upload.created, number.verified…). */
const API_EVENT_PRODUCERS: ApiFunctionName[] = ['uploads', 'spam'];
import { ConsoleConstruct } from './console-construct';
import { UPLOAD_CREATE_MEMORY_MB } from './memory-sizing';

/**
 * The whole service in one stack. Feature constructs (uploads pipeline, webhook delivery, spam
 * monitoring, contact pooling) are added below and receive the shared table, buckets and API.
 */
export class PhoneValidationStack extends Stack {
  readonly data: DataConstruct;
  readonly api: ApiConstruct;
  readonly webhooks: WebhooksConstruct;

  readonly config: StageConfig;

  constructor(scope: Construct, id: string, props?: StackProps & { config?: StageConfig }) {
    super(scope, id, props);
    // bin/app.ts passes the stage file's configuration; tests may give single settings as context.
    const config = props?.config ?? configFromContext(this, id);
    this.config = config;
    this.data = new DataConstruct(this, 'Data');
    const environment = {
      // The dimension of the service's own metrics, so stages never trip each other's alarms.
      STAGE: config.stage,
      TABLE_NAME: this.data.table.tableName,
      FILES_BUCKET: this.data.filesBucket.bucketName,
      SCREENSHOTS_BUCKET: this.data.screenshotsBucket.bucketName,
      CLASSIFICATION_PROVIDER: config.classificationProvider,
    };
    this.api = new ApiConstruct(this, 'Api', { routes: ROUTES, environment, throttle: config.apiThrottle, sizing: { uploads: { memorySize: UPLOAD_CREATE_MEMORY_MB } } });
    for (const [name, fn] of this.api.functions) grantTable(fn, this.data.table, API_TABLE_ACCESS[name]);
    const cursorKey = this.grantCursorKey();

    new BillingConstruct(this, 'Billing', { table: this.data.table, environment });
    // Features whose workers emit events call this.webhooks.grantEmit(fn).
    this.webhooks = new WebhooksConstruct(this, 'Webhooks', { table: this.data.table, environment, stage: config.stage, producers: API_EVENT_PRODUCERS.map((name) => this.api.functions.get(name)!) });

    const grantEmit = (fn: LambdaFunction) => this.webhooks.grantEmit(fn);
    const uploads = new UploadsConstruct(this, 'Uploads', {
      table: this.data.table,
      filesBucket: this.data.filesBucket,
      environment,
      grantEmit,
      retention: config.retention,
      provider: config.provider,
      classifyReservedConcurrency: config.reserveConcurrency ? config.uploadClassifyConcurrency : undefined,
    });
    let twilio: Secret | undefined;
    if (environment.CLASSIFICATION_PROVIDER === 'twilio') {
      // Filled in by the operator after deploy: {"account_sid": "...", "auth_token": "..."}.
      // Created in its documented JSON shape with a placeholder, named in the outputs (docs/deploy.md).
      twilio = new Secret(this, 'TwilioCredentials', {
        description: 'Twilio Lookup credentials: JSON {"account_sid": "AC...", "auth_token": "..."}',
        generateSecretString: { secretStringTemplate: JSON.stringify({ account_sid: 'REPLACE_WITH_ACCOUNT_SID' }), generateStringKey: 'auth_token' },
      });
      new CfnOutput(this, 'TwilioCredentialsSecret', { value: twilio.secretArn, description: 'Put {"account_sid": "AC...", "auth_token": "..."} here (docs/deploy.md)' });
      Validations.of(twilio).acknowledge({ id: 'AwsSolutions-SMG4', reason: 'Twilio auth tokens are rotated in the Twilio console; there is no rotation Lambda for a third-party credential.' });
      // Only the classify step calls the provider.
      uploads.classify.addEnvironment('TWILIO_SECRET_ARN', twilio.secretArn);
      grantSecretValue(uploads.classify, twilio);
    }
    const uploadsApi = this.api.functions.get('uploads')!;
    // With the operator's CloudFront public key, download links are CloudFront signed URLs that
    // outlive any Lambda session (docs/uploads.md); without it, S3 presigned URLs.
    const downloadsPublicKey = config.downloadsPublicKey;
    const recovery = new RecoveryConstruct(this, 'Recovery', {
      table: this.data.table,
      environment,
      grantUploads: (fn) => {
        grantObjects(fn, this.data.filesBucket, { read: ['uploads/'], write: ['uploads/'] });
        uploads.grantStart(fn);
      },
      grantEmit,
    });
    const downloads = downloadsPublicKey ? new DownloadsConstruct(this, 'Downloads', { filesBucket: this.data.filesBucket, publicKeyPem: downloadsPublicKey }) : undefined;
    // What signs links: download requests, upload.completed (finalize), and recovery finishing an upload (the console's below).
    for (const fn of [uploadsApi, uploads.finalize, recovery.job]) downloads?.grantSign(fn);
    // Originals, slices and download links under uploads/; staged files: the presigned POST it signs, the create that reads it.
    grantObjects(uploadsApi, this.data.filesBucket, { read: ['uploads/', 'staging/'], write: ['uploads/', 'staging/'] });
    uploads.grantStart(uploadsApi);
    const contacts = new ContactsConstruct(this, 'Contacts', {
      table: this.data.table,
      environment,
      poolMinutes: config.contactPoolMinutes,
      grantStartUploads: (fn) => {
        grantObjects(fn, this.data.filesBucket, { write: ['uploads/'] });
        uploads.grantStart(fn);
      },
      grantEmit,
    });
    void contacts;

    const spam = new SpamConstruct(this, 'Spam', { table: this.data.table, screenshots: this.data.screenshotsBucket, environment, api: this.api.functions.get('spam')!, webhooks: this.webhooks, settings: config.spam, reserveConcurrency: config.reserveConcurrency });

    // The web console (docs/console.md): user pool, JWT-authorized /console/api routes, CloudFront.
    const consoleUi = new ConsoleConstruct(this, 'Console', {
      api: this.api.api,
      table: this.data.table,
      environment,
      grantUploads: (fn) => {
        // web-drafts/: a web upload's file, validation report and kept plan before confirmation (docs/console.md).
        grantObjects(fn, this.data.filesBucket, { read: ['uploads/', 'staging/', 'web-drafts/'], write: ['uploads/', 'staging/', 'web-drafts/'] });
        uploads.grantStart(fn);
      },
      grantEmit,
      grantCursorKey: (fn) => {
        fn.addEnvironment('CURSOR_SECRET_ARN', cursorKey.secretArn);
        grantSecretValue(fn, cursorKey);
      },
      grantSpam: (fn) => spam.grantServe(fn),
      filesBucket: this.data.filesBucket,
      filesBucketOrigin: this.data.filesBucketOrigin,
    });
    // The console's download links too: every link in CloudFront mode keeps its hour.
    downloads?.grantSign(consoleUi.handler);
    // Ready before it charges (lambdas/platform/readiness.ts): every function that charges reads the
    // secrets a paid request needs before taking credits (the contacts API signs no link; it checks the key).
    const contactsApi = this.api.functions.get('contacts')!;
    downloads?.grantSign(contactsApi);
    // The Twilio token stays the classify step's to read: these see only whether it was filled in.
    if (twilio) {
      for (const fn of [uploadsApi, contactsApi, consoleUi.handler]) {
        fn.addEnvironment('TWILIO_CREDENTIALS_ARN', twilio.secretArn);
        grantSecretDescribe(fn, twilio);
      }
    }
    // Signing secrets: sealed where they are created (endpoint registration, contact creation),
    // opened only where they sign (deliveries, the sweeper's attempts, the URL-change ping).
    const webhooksApi = this.api.functions.get('webhooks')!;
    for (const fn of [webhooksApi, this.api.functions.get('contacts')!, consoleUi.handler]) grantSecretsKey(fn, this.data.secretsKey, 'Encrypt');
    for (const fn of [webhooksApi, consoleUi.handler, this.webhooks.consumer, this.webhooks.sweeper]) grantSecretsKey(fn, this.data.secretsKey, 'Decrypt');
    // Last: alarms cover every function and schedule the stack holds.
    new MonitoringConstruct(this, 'Monitoring', {
      api: this.api.api,
      table: this.data.table,
      stateMachine: uploads.stateMachine,
      extraAlarms: [this.webhooks.dlqAlarm, this.webhooks.autoDisableAlarm],
      deadLetterQueues: [this.webhooks.deadLetterQueue, spam.deadLetterQueue],
      queueAges: [
        // Items expire after a day (the queue's retention): half of it unseen means the tests are stuck.
        { name: 'SpamTestQueue', queue: spam.queue, maxAge: Duration.hours(12), description: 'A spam test item has waited 12 hours (items expire unseen after 24): the test consumer is failing or throttled; read its log group and the TestDlq.' },
        // Delays are at most 15 minutes and a failing message reaches the DLQ within about 30: an hour means deliveries are not being attempted.
        { name: 'WebhookDeliveryQueue', queue: this.webhooks.queue, maxAge: Duration.hours(1), description: 'A webhook delivery message has waited an hour: the delivery consumer is not keeping up or not running; read its log group.' },
      ],
      // A throttled chunk is retried by its workflow Task with backoff (the reservation is the cap).
      throttlesByDesign: [uploads.classify],
      alarmEmail: config.alarmEmail,
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.filesBucket.bucketName });
    // For operator commands that start work (`admin run-contact-pool --stack`).
    new CfnOutput(this, 'UploadStateMachineArn', { value: uploads.stateMachine.stateMachineArn });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhooks.queue.queueUrl });
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
      grantSecretValue(fn, key);
    }
    return key;
  }
}

/** Single settings given as `-c key=value` (tests, one-off synths), validated by the same schema. */
function configFromContext(scope: Construct, id: string): StageConfig {
  const ctx = (key: string): unknown => scope.node.tryGetContext(key) ?? undefined;
  const number = (key: string): number | undefined => (ctx(key) === undefined ? undefined : Number(ctx(key)));
  const config = parseStageConfig('context', {
    classificationProvider: ctx('classificationProvider'),
    alarmEmail: ctx('alarmEmail'),
    contactPoolMinutes: number('contactPoolMinutes'),
    spam: {
      runHourUtc: number('spamRunHourUtc'),
      originationIdentity: ctx('spamOriginationIdentity'),
      deviceLabUrl: ctx('spamDeviceLabUrl'),
      telephonyProvider: ctx('spamTelephonyProvider'),
      carrierTestProvider: ctx('spamCarrierTestProvider'),
    },
  }, process.cwd());
  return { ...config, stackName: id, downloadsPublicKey: ctx('downloadsPublicKey') as string | undefined };
}
