import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { AUTO_DISABLED_METRIC, METRICS_NAMESPACE } from '../lambdas/webhooks/metrics';
import { grantSendMessage, grantTable } from './grants';
import { WEBHOOK_WORKER_TABLE_ACCESS } from './table-access';
import type { StageNames } from './stage-names';
import { acknowledgeInvokeVersions, ServiceFunction } from './service-function';

export interface WebhooksConstructProps {
  table: TableV2;
  environment: Record<string, string>;
  /** The stage's names: the auto-disable metric's Stage dimension, the alarms' names. */
  names: StageNames;
  /** Functions that emit events (API functions, workflow tasks): they get the queue URL and may send to it. */
  producers?: Iterable<LambdaFunction>;
}

const CONSUMER_TIMEOUT = Duration.seconds(60);

/**
 * Webhook delivery: an SQS delay queue carrying each delivery to its next attempt (waits over
 * 15 minutes are re-enqueued until due), its consumer, a sweeper every minute for deliveries a
 * lost message or a crashed worker left behind, and alarms on the dead-letter queue and on
 * endpoints being auto-disabled. The delivery records in the table are the durable state.
 */
export class WebhooksConstruct extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly consumer: ServiceFunction;
  readonly sweeper: ServiceFunction;
  readonly dlqAlarm: Alarm;
  readonly autoDisableAlarm: Alarm;

  constructor(scope: Construct, id: string, props: WebhooksConstructProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeliveryDlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'DeliveryQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS guidance: at least six times the consumer's timeout, so retries of a slow batch do not overlap.
      visibilityTimeout: Duration.seconds(CONSUMER_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: 5 },
    });
    const environment = { ...props.environment, WEBHOOK_QUEUE_URL: this.queue.queueUrl };

    this.consumer = new ServiceFunction(this, 'DeliveryConsumer', {
      entry: 'lambdas/functions/queues/webhook-delivery.ts',
      description: 'Webhooks: makes due delivery attempts carried by the delay queue',
      environment,
      timeout: CONSUMER_TIMEOUT,
    });
    this.consumer.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: 20 }));

    this.sweeper = new ServiceFunction(this, 'DeliverySweeper', {
      entry: 'lambdas/functions/jobs/webhook-sweeper.ts',
      description: 'Webhooks: every minute, attempts overdue deliveries (lost messages, crashed workers)',
      environment,
      timeout: Duration.minutes(2),
    });
    new Schedule(this, 'SweepEveryMinute', {
      description: 'Webhook delivery sweeper',
      schedule: ScheduleExpression.rate(Duration.minutes(1)),
      target: new LambdaInvoke(this.sweeper, { retryAttempts: 0 }),
    });
    acknowledgeInvokeVersions(this, this.sweeper);

    grantTable(this.consumer, props.table, WEBHOOK_WORKER_TABLE_ACCESS.consumer);
    grantTable(this.sweeper, props.table, WEBHOOK_WORKER_TABLE_ACCESS.sweeper);
    for (const fn of [this.consumer, this.sweeper]) grantSendMessage(fn, this.queue);
    for (const fn of props.producers ?? []) this.grantEmit(fn);

    this.dlqAlarm = new Alarm(this, 'DlqNotEmpty', {
      alarmName: props.names.alarm('WebhooksDlqNotEmpty'),
      alarmDescription: 'Webhook delivery messages failed repeatedly and reached the dead-letter queue; the sweeper still retries due deliveries from the table.',
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.autoDisableAlarm = new Alarm(this, 'EndpointAutoDisabled', {
      alarmName: props.names.alarm('WebhooksEndpointAutoDisabled'),
      alarmDescription: 'A webhook endpoint was disabled after 20 consecutive failed attempts.',
      // This stage's endpoints only: the functions write the metric with the Stage dimension (their STAGE).
      metric: new Metric({ namespace: METRICS_NAMESPACE, metricName: AUTO_DISABLED_METRIC, dimensionsMap: { ...props.names.metricDimensions }, statistic: 'Sum', period: Duration.minutes(5) }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }

  /** Lets a function emit events: the queue URL in its environment and permission to send. */
  grantEmit(fn: LambdaFunction): void {
    fn.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    grantSendMessage(fn, this.queue);
  }
}
