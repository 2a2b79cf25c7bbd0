import { CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { grantSecretValue, grantSendMessage, grantTable, ownSmsVoiceIdentities } from './grants';
import { SPAM_TABLE_ACCESS } from './table-access';
import { acknowledgeInvokeVersions, ServiceFunction } from './service-function';
import { StageConfigSchema, type StageConfig } from './stage-config';
import { pinLogicalId } from './stateful-ids';

export interface SpamConstructProps {
  table: TableV2;
  /** The stack's screenshots bucket (its 7-day lifecycle rule lives with the bucket). */
  screenshots: IBucket;
  environment: Record<string, string>;
  /** The `spam` API function: sends verification codes and serves screenshots. */
  api: LambdaFunction;
  /** Lets the daily run emit events (spam.detected) into webhook delivery. */
  webhooks?: { grantEmit(fn: LambdaFunction): void };
  /** The stage's spam settings (lib/stage-config.ts); its defaults when absent. */
  settings?: StageConfig['spam'];
  /** Reserve the test consumer's concurrency (stage config reserveConcurrency). */
  reserveConcurrency?: boolean;
}

/**
 * Spam monitoring: the daily run on EventBridge Scheduler plans the day and fans out one SQS
 * message per number and carrier; the test consumer takes them at a bounded concurrency (the event
 * source's maximum; with the stage's reserveConcurrency also reserved concurrency, so the fan-out
 * can neither starve the API nor be starved), retrying each message alone, its dead-letter queue
 * alarmed (MonitoringConstruct). Also the device-lab token secret, and what the API function needs
 * to send verification codes through AWS End User Messaging SMS and Voice v2. Settings: the stage file's `spam` block (docs/deploy.md).
 */
export class SpamConstruct extends Construct {
  readonly dailyRun: ServiceFunction;
  readonly testConsumer: ServiceFunction;
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deviceLabToken: Secret;

  constructor(scope: Construct, id: string, props: SpamConstructProps) {
    super(scope, id);
    const settings = props.settings ?? StageConfigSchema.shape.spam.parse(undefined);
    const origination = settings.originationIdentity ?? '';
    const deviceLabUrl = settings.deviceLabUrl ?? '';
    const telephonyProvider = settings.telephonyProvider ?? (origination ? 'aws' : 'simulator');
    const carrierTestProvider = settings.carrierTestProvider ?? (deviceLabUrl ? 'device-lab' : 'simulator');

    // The operator puts the lab's API token here after deploy (`aws secretsmanager put-secret-value`).
    this.deviceLabToken = new Secret(this, 'DeviceLabToken', {
      description: 'Bearer token of the device-lab API used by the daily spam tests',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    pinLogicalId(this.deviceLabToken, 'deviceLabToken');
    new CfnOutput(this, 'DeviceLabTokenSecret', { value: this.deviceLabToken.secretArn, description: "Put the device lab's API token here, as plain text (docs/deploy.md)" });
    Validations.of(this.deviceLabToken).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The token is issued by the device-lab vendor and rotated in its console; there is no rotation Lambda to run.',
    });

    // One try may take the whole test timeout, plus the writes around it.
    const consumerTimeout = Duration.seconds(settings.testTimeoutSeconds + 60);
    this.deadLetterQueue = new Queue(this, 'TestDlq', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    this.queue = new Queue(this, 'TestQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS guidance for Lambda consumers: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(consumerTimeout.toSeconds() * 6),
      // A message's last receive records the failure on the number; reaching the DLQ means even that failed.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: settings.itemAttempts },
      // A day's items are stale once the next day's run has planned its own.
      retentionPeriod: Duration.days(1),
    });

    this.dailyRun = new ServiceFunction(this, 'DailyRun', {
      entry: 'lambdas/functions/jobs/spam-daily-run.ts',
      description: 'Daily: plan the tests of every verified in-limit monitored number on AT&T, T-Mobile and Verizon, one queued item per number and carrier',
      timeout: Duration.minutes(15),
      environment: {
        ...props.environment,
        CARRIER_TEST_PROVIDER: carrierTestProvider,
        SPAM_QUEUE_URL: this.queue.queueUrl,
      },
    });
    grantTable(this.dailyRun, props.table, SPAM_TABLE_ACCESS.dailyRun);
    grantSendMessage(this.dailyRun, this.queue);

    this.testConsumer = new ServiceFunction(this, 'TestConsumer', {
      entry: 'lambdas/functions/queues/spam-carrier-test.ts',
      description: 'Spam: tests one monitored number on one carrier per queued item',
      timeout: consumerTimeout,
      reservedConcurrentExecutions: props.reserveConcurrency === false ? undefined : settings.concurrency,
      environment: {
        ...props.environment,
        CARRIER_TEST_PROVIDER: carrierTestProvider,
        DEVICE_LAB_URL: deviceLabUrl,
        DEVICE_LAB_TOKEN_SECRET_ARN: this.deviceLabToken.secretArn,
        SPAM_ITEM_ATTEMPTS: String(settings.itemAttempts),
        SPAM_TEST_TIMEOUT_MS: String(settings.testTimeoutSeconds * 1000),
      },
    });
    // One item per invocation: a slow call holds up no other item, and a timeout fails only its own.
    this.testConsumer.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: settings.concurrency }));
    grantTable(this.testConsumer, props.table, SPAM_TABLE_ACCESS.testConsumer);
    // Object-level rights on the spam/ prefix only, rather than the broad grant* helpers.
    const screenshotObjects = props.screenshots.arnForObjects('spam/*');
    this.testConsumer.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [screenshotObjects] }));
    grantSecretValue(this.testConsumer, this.deviceLabToken);
    props.webhooks?.grantEmit(this.testConsumer);

    new Schedule(this, 'Daily', {
      description: 'Spam monitoring: daily carrier tests',
      schedule: ScheduleExpression.cron({ minute: '0', hour: String(settings.runHourUtc ?? 14) }),
      target: new LambdaInvoke(this.dailyRun, { retryAttempts: 2 }),
    });
    acknowledgeInvokeVersions(this, this.dailyRun);

    Validations.of(this.testConsumer).acknowledge({ id: this.screenshotsWildcard(props.screenshots), reason: 'Screenshots are objects under the spam/ prefix of the screenshots bucket; the wildcard covers only their keys.' });
    this.serving = { telephonyProvider, origination, screenshots: props.screenshots, screenshotObjects };
    this.grantServe(props.api);
  }

  private readonly serving: { telephonyProvider: string; origination: string; screenshots: IBucket; screenshotObjects: string };

  /**
   * What a function that serves the spam API needs: the telephony settings, reading screenshots,
   * and sending codes through AWS when telephony is AWS. The `spam` API function and the console's
   * function (its spam page calls the same feature functions) get exactly this.
   */
  grantServe(fn: LambdaFunction): void {
    const { telephonyProvider, origination, screenshots, screenshotObjects } = this.serving;
    fn.addEnvironment('TELEPHONY_PROVIDER', telephonyProvider);
    fn.addEnvironment('SMS_VOICE_ORIGINATION_IDENTITY', origination);
    fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [screenshotObjects] }));
    // Sending codes through AWS only when telephony is AWS; the simulator writes to the table.
    if (telephonyProvider === 'aws') {
      fn.addToRolePolicy(
        new PolicyStatement({
          actions: ['sms-voice:SendTextMessage', 'sms-voice:SendVoiceMessage'],
          // An ARN names the one identity; a bare phone number or sender id is one of the account's own.
          resources: [origination.startsWith('arn:') ? origination : ownSmsVoiceIdentities(fn)],
        }),
      );
      if (!origination.startsWith('arn:')) {
        Validations.of(fn).acknowledge({
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:sms-voice:${nagText(Stack.of(this).region, 'AWS::Region')}:${nagText(Stack.of(this).account, 'AWS::AccountId')}:*]`,
          reason: 'The origination identity was given as a phone number or sender id, not an ARN: sending is allowed from this account\'s own SMS/Voice identities in this region only.',
        });
      }
    }
    Validations.of(fn).acknowledge({ id: this.screenshotsWildcard(screenshots), reason: 'Screenshots are objects under the spam/ prefix of the screenshots bucket; the wildcard covers only their keys.' });
  }

  private screenshotsWildcard(screenshots: IBucket): string {
    return `AwsSolutions-IAM5[Resource::<${Stack.of(this).resolve(Stack.of(this).getLogicalId(screenshots.node.defaultChild as CfnElement))}.Arn>/spam/*]`;
  }
}

/** How cdk-nag writes a stack attribute in a finding: the literal, or `<AWS::…>` for a pseudo parameter. */
const nagText = (value: string, pseudo: string): string => (Token.isUnresolved(value) ? `<${pseudo}>` : value);
