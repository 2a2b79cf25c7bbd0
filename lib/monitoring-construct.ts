import { ArnFormat, type CfnResource, Duration, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, Dashboard, GraphWidget, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { StageNames } from './stage-names';
import { AsyncFailures } from './async-failures';

export interface MonitoringConstructProps {
  api: HttpApi;
  table: TableV2;
  stateMachine: StateMachine;
  /** Alarms built elsewhere (webhook DLQ, endpoint auto-disable) that must notify too. */
  extraAlarms: Alarm[];
  /** Dead-letter queues built elsewhere, alarmed when not empty. */
  deadLetterQueues: Queue[];
  /** Queues whose oldest message must not wait longer than `maxAge` (work stuck or expiring unseen). */
  queueAges?: { name: string; queue: Queue; maxAge: Duration; description: string }[];
  /** Functions whose throttling is by design (retried by their caller): no Throttles alarm. */
  throttlesByDesign?: LambdaFunction[];
  /** An address that receives every alarm (optional; subscribe others to the topic). */
  alarmEmail?: string;
  /** The stage's names: alarms and the dashboard are named after the stack. */
  names: StageNames;
}

/**
 * Nobody is left to find out by chance (docs/operations.md lists every alarm with its runbook
 * line): one SNS topic, and alarms with that action on failed or timed-out workflows, every
 * function's errors and throttles (but throttling by design), failed scheduled runs (an on-failure
 * destination for every schedule target), queues whose oldest message waits too long, API 5xx and p99 latency, every dead-letter queue (scheduled
 * jobs included: each schedule gets one), webhook endpoint auto-disable, and table throttling.
 * Built last, over what the stack holds, so a new function or schedule is covered without
 * remembering to.
 */
export class MonitoringConstruct extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly scheduleDeadLetters: Queue;
  readonly asyncFailures: AsyncFailures;

  constructor(scope: Construct, id: string, props: MonitoringConstructProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.topic = new Topic(this, 'Alarms', { displayName: 'Phone validation service alarms', enforceSSL: true, masterKey: undefined });
    // enforceSSL gives the topic a policy of its own, which replaces SNS's default one: without this
    // statement no alarm may publish to it ("not authorized to perform: SNS:Publish"). Only alarms
    // of this account and region.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': stack.formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
        },
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);

    // A schedule whose target failed after its retries leaves its event here instead of vanishing.
    this.scheduleDeadLetters = new Queue(this, 'ScheduledJobsDlq', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.scheduleDeadLetters).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself the dead-letter queue of the schedules; it is alarmed when not empty.' });
    const schedulerRoles = stack.node.findAll().filter((c): c is Role => c instanceof Role && isSchedulerRole(c));
    for (const role of schedulerRoles) this.scheduleDeadLetters.grantSendMessages(role as IRole);
    for (const schedule of stack.node.findAll().filter((c): c is CfnSchedule => c instanceof CfnSchedule)) {
      schedule.addPropertyOverride('Target.DeadLetterConfig', { Arn: this.scheduleDeadLetters.queueArn });
    }

    // A scheduled run that throws, after Lambda's retries, leaves its event and error here.
    this.asyncFailures = new AsyncFailures(this, 'AsyncFailures');

    const alarm = (name: string, description: string, metric: Metric, threshold = 1) => {
      const a = new Alarm(this, name, {
        alarmName: props.names.alarm(name),
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      this.alarms.push(a);
      return a;
    };
    const five = { period: Duration.minutes(5) };

    alarm('WorkflowsFailed', 'An upload workflow execution failed: the upload should have been failed and refunded by its catch; check the upload and recovery logs.', props.stateMachine.metricFailed({ ...five, statistic: 'Sum' }));
    alarm('WorkflowsTimedOut', 'An upload workflow execution timed out: recovery fails and refunds the upload after its bound; check the step that hung.', props.stateMachine.metricTimedOut({ ...five, statistic: 'Sum' }));

    const functions = stack.node.findAll().filter((c): c is LambdaFunction => c instanceof LambdaFunction && !c.node.path.includes('LogRetention') && !c.node.path.includes('BucketNotificationsHandler') && !c.node.path.includes('Custom::'));
    for (const fn of functions) {
      const name = fn.node.path.replace(`${stack.node.path}/`, '').replace(/\//g, '');
      alarm(`${name}Errors`, `${fn.node.path} reported errors (unhandled exceptions or timeouts); read its log group's ERROR lines for the request id.`, fn.metricErrors({ ...five, statistic: 'Sum' }));
      if (props.throttlesByDesign?.includes(fn)) continue;
      alarm(`${name}Throttles`, `${fn.node.path} was throttled: account or reserved concurrency is exhausted.`, fn.metricThrottles({ ...five, statistic: 'Sum' }));
    }

    const apiMetric = (metricName: string, statistic: string) =>
      new Metric({ namespace: 'AWS/ApiGateway', metricName, dimensionsMap: { ApiId: props.api.apiId, Stage: '$default' }, statistic, ...five });
    alarm('Api5xx', 'The HTTP API answered 5xx at least 5 times in 5 minutes; each 500 body carries a request id to find in the function logs.', apiMetric('5xx', 'Sum'), 5);
    alarm('ApiLatencyP99', 'The HTTP API p99 latency exceeded 10 s over 5 minutes (API Gateway gives up at 30 s).', apiMetric('Latency', 'p99'), 10_000);

    for (const [i, queue] of [...props.deadLetterQueues, this.scheduleDeadLetters].entries()) {
      alarm(`DeadLetters${i}`, `Messages reached the dead-letter queue ${queue.node.path}: a job or delivery failed after its retries.`, queue.metricApproximateNumberOfMessagesVisible({ ...five, statistic: 'Maximum' }));
    }

    alarm('AsyncInvokeFailures', `A scheduled job failed after Lambda's retries: its event, error and request id are messages of ${this.asyncFailures.queue.node.path}.`, this.asyncFailures.queue.metricApproximateNumberOfMessagesVisible({ ...five, statistic: 'Maximum' }));
    for (const { name, queue, maxAge, description } of props.queueAges ?? []) {
      alarm(`${name}OldestMessage`, description, queue.metricApproximateAgeOfOldestMessage({ ...five, statistic: 'Maximum' }), maxAge.toSeconds());
    }

    for (const metricName of ['ReadThrottleEvents', 'WriteThrottleEvents']) {
      alarm(`Table${metricName}`, `The table throttled requests (${metricName}); on-demand tables throttle on sudden large spikes or hot partitions.`, new Metric({ namespace: 'AWS/DynamoDB', metricName, dimensionsMap: { TableName: props.table.tableName }, statistic: 'Sum', ...five }));
    }
    for (const extra of props.extraAlarms) extra.addAlarmAction(action);

    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.names.dashboard });
    // CloudFormation takes Tags on a dashboard (the stack's tags reach it), but the resource schema
    // cfn-lint 1.51 ships predates them and reports E3002; only that rule is silenced, here only.
    (dashboard.node.defaultChild as CfnResource).addMetadata('cfn-lint', { config: { ignore_checks: ['E3002'] } });
    dashboard.addWidgets(
      new GraphWidget({ title: 'API 5xx and p99 latency', left: [apiMetric('5xx', 'Sum')], right: [apiMetric('Latency', 'p99')] }),
      new GraphWidget({ title: 'Upload workflows', left: [props.stateMachine.metricSucceeded(five), props.stateMachine.metricFailed(five), props.stateMachine.metricTimedOut(five)] }),
      new GraphWidget({ title: 'Function errors', left: functions.map((fn) => fn.metricErrors({ ...five, statistic: 'Sum' })) }),
      new GraphWidget({ title: 'Dead letters and failed scheduled runs', left: [...props.deadLetterQueues, this.scheduleDeadLetters, this.asyncFailures.queue].map((q) => q.metricApproximateNumberOfMessagesVisible(five)) }),
    );
  }
}

function isSchedulerRole(role: Role): boolean {
  const doc = Stack.of(role).resolve(role.assumeRolePolicy?.toJSON()) as { Statement?: { Principal?: { Service?: string | string[] } }[] } | undefined;
  return (doc?.Statement ?? []).some((s) => [s.Principal?.Service ?? []].flat().some((svc) => String(svc).includes('scheduler')));
}
