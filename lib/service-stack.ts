import { CfnOutput, Duration, Stack, Tags, Validations, type StackProps } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { ROUTES } from '../lambdas/api/routes';
import { objectFieldNames } from '../lambdas/platform/zod';
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
import { grantObjects, grantSecretDescribe, grantSecretValue, grantSecretsKey, grantTable } from './grants';
import { API_TABLE_ACCESS } from './table-access';
import type { ApiFunctionName } from '../lambdas/platform/http/route-spec';
import { type ContextSetting, parseStageConfig, type StageConfig } from './stage-config';
import { FILE_STORE_PROBE_PREFIX } from '../lambdas/platform/dependency-checks';

/** The Secrets Manager secret each paid lookup provider reads its credentials from (docs/deploy.md). */
const PROVIDER_CREDENTIALS: Partial<Record<StageConfig['classificationProvider'], { id: string; pin: 'twilioCredentials' | 'telnyxCredentials' | 'trestleCredentials'; name: string; env: string; description: string; shape: string; template: Record<string, string>; generatedKey: string }>> = {
  twilio: {
    id: 'TwilioCredentials',
    pin: 'twilioCredentials',
    name: 'Twilio',
    env: 'TWILIO_SECRET_ARN',
    description: 'Twilio Lookup credentials: JSON {"account_sid": "AC...", "auth_token": "..."}',
    shape: '{"account_sid": "AC...", "auth_token": "..."}',
    template: { account_sid: 'REPLACE_WITH_ACCOUNT_SID' },
    generatedKey: 'auth_token',
  },
  telnyx: {
    id: 'TelnyxCredentials',
    pin: 'telnyxCredentials',
    name: 'Telnyx',
    env: 'TELNYX_SECRET_ARN',
    description: 'Telnyx Number Lookup API key: JSON {"api_key": "KEY..."}',
    shape: '{"api_key": "KEY..."}',
    template: {},
    generatedKey: 'api_key',
  },
  trestle: {
    id: 'TrestleCredentials',
    pin: 'trestleCredentials',
    name: 'Trestle',
    env: 'TRESTLE_SECRET_ARN',
    description: 'Trestle API key: JSON {"api_key": "..."}',
    shape: '{"api_key": "..."}',
    template: {},
    generatedKey: 'api_key',
  },
};

/** API functions whose requests publish events (upload.created, number.verified…) or queue a delivery (a webhook redelivery). */
const API_EVENT_PRODUCERS: ApiFunctionName[] = ['uploads', 'spam', 'webhooks'];
import { ConsoleConstruct } from './console-construct';
import { UPLOAD_CREATE_MEMORY_MB } from './memory-sizing';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from './service-function';
import { pinLogicalId } from './stateful-ids';

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
    // bin/app.ts passes the stage file's configuration; tests may give single settings as context.
    const config = props?.config ?? configFromContext(scope, id);
    super(scope, id, { terminationProtection: config.terminationProtection, ...props });
    this.config = config;
    // On every resource that takes tags: cost reports and consoles tell the stages apart.
    Tags.of(this).add('service', 'phone-validation');
    Tags.of(this).add('stage', config.stage);
    this.data = new DataConstruct(this, 'Data', { names: config.names, tableDeletionProtection: config.tableDeletionProtection, noncurrentDays: config.retention.noncurrentDays, backup: config.backup });
    const environment = {
      TABLE_NAME: this.data.table.tableName,
      FILES_BUCKET: this.data.filesBucket.bucketName,
      SCREENSHOTS_BUCKET: this.data.screenshotsBucket.bucketName,
      CLASSIFICATION_PROVIDER: config.classificationProvider,
      // The value of the Stage dimension on the service's own metrics (lib/stage-names.ts).
      STAGE: config.stage,
      // How long uploads' files are kept (the files bucket's lifecycle): a download of a file gone
      // after that is expected, one gone before it is logged as lost (lambdas/uploads/missing-file.ts).
      UPLOADS_RETENTION_DAYS: String(config.retention.uploadsDays),
      ...providerRateEnvironment(config),
    };
    this.api = new ApiConstruct(this, 'Api', { routes: ROUTES, environment, throttle: config.apiThrottle, sizing: { uploads: { memorySize: UPLOAD_CREATE_MEMORY_MB } } });
    for (const [name, fn] of this.api.functions) grantTable(fn, this.data.table, API_TABLE_ACCESS[name]);
    // GET /ready asks the file store for an object nothing writes (lambdas/platform/dependency-checks.ts).
    grantObjects(this.api.functions.get('platform')!, this.data.filesBucket, { read: [FILE_STORE_PROBE_PREFIX] });
    const cursorKey = this.grantCursorKey();

    new BillingConstruct(this, 'Billing', { table: this.data.table, environment });
    // Features whose workers emit events call this.webhooks.grantEmit(fn).
    this.webhooks = new WebhooksConstruct(this, 'Webhooks', { table: this.data.table, environment, names: config.names, producers: API_EVENT_PRODUCERS.map((name) => this.api.functions.get(name)!) });

    const grantEmit = (fn: LambdaFunction) => this.webhooks.grantEmit(fn);
    const uploads = new UploadsConstruct(this, 'Uploads', {
      table: this.data.table,
      filesBucket: this.data.filesBucket,
      environment,
      grantEmit,
      retention: config.retention,
      provider: config.provider,
      lookupCache: config.lookupCache,
      classifyReservedConcurrency: config.reserveConcurrency ? config.uploadClassifyConcurrency : undefined,
    });
    uploads.classify.addEnvironment('CLASSIFICATION_CHAIN', config.classificationChain);
    const credentials = PROVIDER_CREDENTIALS[config.classificationProvider];
    let providerSecret: { secret: Secret; readinessEnv: string } | undefined;
    if (credentials) {
      // Filled in by the operator after deploy, in its documented JSON shape; created with a
      // placeholder and named in the outputs (docs/deploy.md). Lookups fail with the provider's
      // 401/403 until it is replaced.
      const secret = new Secret(this, credentials.id, {
        description: credentials.description,
        generateSecretString: { secretStringTemplate: JSON.stringify(credentials.template), generateStringKey: credentials.generatedKey },
      });
      pinLogicalId(secret, credentials.pin);
      providerSecret = { secret, readinessEnv: credentials.env.replace('_SECRET_ARN', '_CREDENTIALS_ARN') };
      new CfnOutput(this, credentials.id + 'Secret', { value: secret.secretArn, description: `Put ${credentials.shape} here (docs/deploy.md)` });
      Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: `${credentials.name} credentials are rotated in ${credentials.name}'s console; there is no rotation Lambda for a third-party credential.` });
      // Only the classify step calls the provider.
      uploads.classify.addEnvironment(credentials.env, secret.secretArn);
      grantSecretValue(uploads.classify, secret);
    }
    const uploadsApi = this.api.functions.get('uploads')!;
    // With the operator's CloudFront public key, download links are CloudFront signed URLs that
    // outlive any Lambda session (docs/uploads.md); without it, S3 presigned URLs.
    const { downloadsPublicKey, downloadsSecondPublicKey } = config;
    const recovery = new RecoveryConstruct(this, 'Recovery', {
      table: this.data.table,
      environment,
      grantUploads: (fn) => {
        // delete: the files of a create that never charged (reconcile-one.ts).
        grantObjects(fn, this.data.filesBucket, { read: ['uploads/'], write: ['uploads/'], delete: ['uploads/'] });
        uploads.grantStart(fn);
      },
      grantEmit,
    });
    const downloads = downloadsPublicKey || downloadsSecondPublicKey ? new DownloadsConstruct(this, 'Downloads', { filesBucket: this.data.filesBucket, publicKeyPem: downloadsPublicKey, secondPublicKeyPem: downloadsSecondPublicKey }) : undefined;
    // What signs links: download requests, upload.completed (finalize), and recovery finishing an upload (the console's below).
    for (const fn of [uploadsApi, uploads.finalize, recovery.job]) downloads?.grantSign(fn);
    // Originals, slices and download links under uploads/; staged files: the presigned POST it signs, the create that reads it.
    // delete: a create refused for credits takes its files back (create-upload.ts); a create from a
    // staged file deletes it once the upload holds its own copy (staging.ts).
    grantObjects(uploadsApi, this.data.filesBucket, { read: ['uploads/', 'staging/'], write: ['uploads/', 'staging/'], delete: ['uploads/', 'staging/'] });
    uploads.grantStart(uploadsApi);
    const contacts = new ContactsConstruct(this, 'Contacts', {
      table: this.data.table,
      environment,
      poolMinutes: config.contactPoolMinutes,
      grantStartUploads: (fn) => {
        // delete: createUpload's refusal path (a pool upload is paid per contact and never refused, but the code is the same).
        grantObjects(fn, this.data.filesBucket, { write: ['uploads/'], delete: ['uploads/'] });
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
        // web-drafts/: a web upload's file, validation report and kept plan before confirmation (docs/console.md);
        // staging/: a staged file is deleted once its draft holds its own copy.
        grantObjects(fn, this.data.filesBucket, { read: ['uploads/', 'staging/', 'web-drafts/'], write: ['uploads/', 'staging/', 'web-drafts/'], delete: ['uploads/', 'staging/'] });
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
      domainPrefix: config.names.consoleDomainPrefix(this.account),
      pageDir: consolePageDir(this),
    });
    // The console's download links too: every link in CloudFront mode keeps its hour.
    downloads?.grantSign(consoleUi.handler);
    // Ready before it charges (lambdas/platform/charge-readiness.ts): every function that charges reads the
    // secrets a paid request needs before taking credits (the contacts API signs no link; it checks the key).
    const contactsApi = this.api.functions.get('contacts')!;
    downloads?.grantSign(contactsApi);
    // The provider's credentials stay the classify step's to read: these see only whether they were filled in.
    if (providerSecret) {
      for (const fn of [uploadsApi, contactsApi, consoleUi.handler]) {
        fn.addEnvironment(providerSecret.readinessEnv, providerSecret.secret.secretArn);
        grantSecretDescribe(fn, providerSecret.secret);
      }
    }
    // Signing secrets: sealed where they are created (endpoint registration, contact creation),
    // opened only where they sign (deliveries, the sweeper's attempts, the URL-change ping).
    const webhooksApi = this.api.functions.get('webhooks')!;
    for (const fn of [webhooksApi, this.api.functions.get('contacts')!, consoleUi.handler]) grantSecretsKey(fn, this.data.secretsKey, 'Encrypt');
    for (const fn of [webhooksApi, consoleUi.handler, this.webhooks.consumer, this.webhooks.sweeper]) grantSecretsKey(fn, this.data.secretsKey, 'Decrypt');
    // Last: alarms cover every function and schedule the stack holds.
    const monitoring = new MonitoringConstruct(this, 'Monitoring', {
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
      names: config.names,
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'FilesBucketName', { value: this.data.filesBucket.bucketName });
    // For operator commands that start work (`admin run-contact-pool --stack`).
    new CfnOutput(this, 'UploadStateMachineArn', { value: uploads.stateMachine.stateMachineArn });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.webhooks.queue.queueUrl });
    // Every alarm notifies this topic: subscribe a pager, chat or ticket integration to it (docs/operations.md).
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Every alarm notifies this SNS topic; subscribe on-call to it' });
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
    pinLogicalId(key, 'cursorKey');
    Validations.of(key).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the cursor key only makes outstanding next_cursor values invalid (400; clients restart from the first page); it is rotated by putting a new value, without a rotation Lambda.',
    });
    const paginated = ROUTES.filter((route) => objectFieldNames(route.request?.query).includes('cursor'));
    for (const name of new Set(paginated.map((route) => route.fn))) {
      const fn = this.api.functions.get(name)!;
      fn.addEnvironment('CURSOR_SECRET_ARN', key.secretArn);
      grantSecretValue(fn, key);
    }
    return key;
  }
}

/**
 * The built console page (web/dist, made by `npm run build:web`, which cdk.json's `build` runs
 * before every synth); context `consolePageDir` names another folder (the tests' stand-in page).
 */
function consolePageDir(scope: Construct): string {
  const given = scope.node.tryGetContext('consolePageDir') as string | undefined;
  return given ? resolve(PROJECT_ROOT, given) : join(PROJECT_ROOT, 'web', 'dist');
}

/** Single settings given as `-c key=value` (tests, one-off synths), validated by the same schema. */
function configFromContext(scope: Construct, id: string): StageConfig {
  // Only the keys CONTEXT_SETTINGS lists, which bin/app.ts refuses (a deploy reads the stage file).
  const ctx = (key: ContextSetting): unknown => scope.node.tryGetContext(key) ?? undefined;
  const number = (key: ContextSetting): number | undefined => (ctx(key) === undefined ? undefined : Number(ctx(key)));
  const config = parseStageConfig('context', {
    stackName: id,
    classificationProvider: ctx('classificationProvider'),
    classificationChain: ctx('classificationChain'),
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
  return { ...config, downloadsPublicKey: ctx('downloadsPublicKey') as string | undefined };
}

/**
 * A paid provider's account rate, under the name its adapter reads, on every function: the classify
 * step spends it, and whatever plans an upload's chunks (Prepare, the console's progress) sizes
 * them and their concurrency by it (lambdas/uploads/chunk-plan.ts). Absent for a free provider.
 */
function providerRateEnvironment(config: StageConfig): Record<string, string> {
  const provider = config.classificationProvider;
  if (provider !== 'twilio' && provider !== 'telnyx' && provider !== 'trestle') return {};
  return { [`${provider.toUpperCase()}_REQUESTS_PER_SECOND`]: String(config.provider.requestsPerSecond) };
}
