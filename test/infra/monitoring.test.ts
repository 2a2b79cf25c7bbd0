
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { nagErrors, testApp } from '../support/stack';
import { parseStageConfig } from '../../lib/stage-config';

// Nobody is left to find out by chance: every alarm notifies, every failure path is alarmed.

const app = testApp({ alarmEmail: 'oncall@example.test' });
const stack = new PhoneValidationStack(app, 'MonStack', { env: { account: '111111111111', region: 'us-east-1' } });
const template = Template.fromStack(stack);
const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as { Properties: Record<string, unknown> }[];
const functions = Object.keys(template.findResources('AWS::Lambda::Function'));

describe('alerting', () => {
  it('every alarm has an action, to the one topic, which mails the configured address', () => {
    expect(alarms.length).toBeGreaterThan(10);
    for (const a of alarms) expect(a.Properties.AlarmActions, String(a.Properties.AlarmDescription)).toEqual([{ Ref: expect.stringMatching(/^MonitoringAlarms/) }]);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.test' });
  });

  it('every function of the stack, CDK\'s own included, logs to a group of the stack kept a month', () => {
    const groups = template.findResources('AWS::Logs::LogGroup') as Record<string, { Properties: { RetentionInDays?: number } }>;
    for (const [id, fn] of Object.entries(template.findResources('AWS::Lambda::Function')) as [string, { Properties: { LoggingConfig?: { LogGroup?: { Ref?: string } } } }][]) {
      const group = fn.Properties.LoggingConfig?.LogGroup?.Ref;
      expect(group, `${id} logs to Lambda's implicit group, kept forever`).toBeDefined();
      expect(groups[group!]?.Properties.RetentionInDays, id).toBe(30);
    }
  });

  it("lets this account's alarms publish to the topic (its own policy replaces SNS's default) and names the topic in the outputs", () => {
    const [policy] = Object.values(template.findResources('AWS::SNS::TopicPolicy')) as { Properties: { PolicyDocument: { Statement: { Effect: string; Principal?: { Service?: string }; Action: string | string[]; Condition?: Record<string, Record<string, unknown>> }[] } } }[];
    const statements = policy!.Properties.PolicyDocument.Statement;
    const allow = statements.filter((s) => s.Effect === 'Allow' && s.Principal?.Service === 'cloudwatch.amazonaws.com' && [s.Action].flat().includes('sns:Publish'));
    expect(allow).toHaveLength(1);
    expect(allow[0]!.Condition!.StringEquals).toEqual({ 'aws:SourceAccount': '111111111111' });
    expect(JSON.stringify(allow[0]!.Condition!.ArnLike)).toContain(':cloudwatch:us-east-1:111111111111:alarm:*');
    // The HTTPS-only rule stays.
    expect(statements.some((s) => s.Effect === 'Deny')).toBe(true);
    template.hasOutput('AlarmTopicArn', { Value: { Ref: Match.stringLikeRegexp('^MonitoringAlarms') } });
  });

  it('alarms cover failed and timed-out workflows, every function, API 5xx and latency, table throttling', () => {
    const metrics = alarms.map((a) => `${String(a.Properties.Namespace)}/${String(a.Properties.MetricName)}`);
    for (const m of ['AWS/States/ExecutionsFailed', 'AWS/States/ExecutionsTimedOut', 'AWS/ApiGateway/5xx', 'AWS/ApiGateway/Latency', 'AWS/DynamoDB/ReadThrottleEvents', 'AWS/DynamoDB/WriteThrottleEvents']) {
      expect(metrics).toContain(m);
    }
    const errorAlarms = alarms.filter((a) => a.Properties.MetricName === 'Errors' && a.Properties.Namespace === 'AWS/Lambda');
    const watched = new Set(errorAlarms.map((a) => JSON.stringify((a.Properties.Dimensions as { Value: unknown }[])[0]!.Value)));
    const serviceFunctions = functions.filter((id) => !/LogRetention|BucketNotifications|CustomResource|CustomCDKBucketDeployment|AWS[0-9a-f]{20,}/.test(id));
    for (const id of serviceFunctions) expect(watched, id).toContain(JSON.stringify({ Ref: id }));
  });

  it('names every alarm after its stack (two stages in one account never share an alarm name)', () => {
    for (const a of alarms) expect(a.Properties.AlarmName).toMatch(/^MonStack-[A-Za-z0-9]+$/);
    expect(new Set(alarms.map((a) => a.Properties.AlarmName)).size).toBe(alarms.length);
    expect(alarms.map((a) => a.Properties.AlarmName)).toEqual(expect.arrayContaining(['MonStack-Api5xx', 'MonStack-WorkflowsFailed', 'MonStack-WebhooksEndpointAutoDisabled']));
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'MonStack-operations' });
  });

  it('every schedule has a dead-letter queue its role may send to, and every dead-letter queue is alarmed', () => {
    const schedules = Object.values(template.findResources('AWS::Scheduler::Schedule')) as { Properties: { Target: { DeadLetterConfig?: { Arn: unknown } } } }[];
    expect(schedules.length).toBeGreaterThanOrEqual(5);
    for (const s of schedules) expect(s.Properties.Target.DeadLetterConfig).toBeDefined();
    const dlqAlarms = alarms.filter((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(dlqAlarms.length).toBeGreaterThanOrEqual(2);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: Match.arrayWith(['sqs:SendMessage']), Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('MonitoringScheduledJobsDlq'), 'Arn'] } })]) },
    });
  });

  it('every function a schedule targets has an on-failure destination into the failure queue, which is alarmed', () => {
    const schedules = Object.values(template.findResources('AWS::Scheduler::Schedule')) as { Properties: { Target: { Arn: { 'Fn::GetAtt': [string, string] } } } }[];
    const targets = schedules.map((s) => s.Properties.Target.Arn['Fn::GetAtt'][0]);
    expect(targets.length).toBeGreaterThanOrEqual(5);
    const configs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig')) as { Properties: { FunctionName: { Ref: string }; MaximumRetryAttempts: number; DestinationConfig: { OnFailure: { Destination: unknown } } } }[];
    const failureQueue = { 'Fn::GetAtt': [expect.stringMatching(/^MonitoringAsyncFailuresQueue/), 'Arn'] };
    for (const target of targets) {
      const config = configs.find((c) => c.Properties.FunctionName.Ref === target);
      expect(config, target).toBeDefined();
      expect(config!.Properties.DestinationConfig.OnFailure.Destination).toEqual(failureQueue);
      // Lambda sends to the destination with the function's role.
      const policies = Object.values(template.findResources('AWS::IAM::Policy')) as { Properties: { Roles: { Ref: string }[]; PolicyDocument: { Statement: { Action: unknown; Resource: unknown }[] } } }[];
      const role = (template.toJSON().Resources[target].Properties as { Role: { 'Fn::GetAtt': [string, string] } }).Role['Fn::GetAtt'][0];
      const statements = policies.filter((p) => p.Properties.Roles.some((r) => r.Ref === role)).flatMap((p) => p.Properties.PolicyDocument.Statement);
      expect(statements, target).toContainEqual({ Action: 'sqs:SendMessage', Effect: 'Allow', Resource: failureQueue });
    }
    // Minute-rate jobs run again soon (their next run is the retry); the daily ones get Lambda's two retries.
    const retries = Object.fromEntries(configs.map((c) => [c.Properties.FunctionName.Ref.replace(/[0-9A-F]{8}$/, ''), c.Properties.MaximumRetryAttempts]));
    expect(retries).toEqual({ BillingBillingPeriodJob: 2, SpamDailyRun: 2, RecoveryJob: 0, ContactsPoolJob: 0, WebhooksDeliverySweeper: 0 });
    const failureAlarm = alarms.find((a) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Properties.Dimensions).includes('MonitoringAsyncFailuresQueue'));
    expect(failureAlarm?.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Statistic: 'Maximum' });
  });

  it('the spam test queue and the webhook delivery queue alarm on the age of their oldest message', () => {
    const ages = alarms.filter((a) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage');
    const threshold = (queue: RegExp) => ages.find((a) => queue.test(JSON.stringify(a.Properties.Dimensions)))?.Properties.Threshold;
    expect(threshold(/SpamTestQueue[0-9A-F]{8}"/)).toBe(12 * 3600);
    expect(threshold(/WebhooksDeliveryQueue[0-9A-F]{8}"/)).toBe(3600);
    expect(ages).toHaveLength(2);
  });

  it('no alarm on throttling by design: ClassifyChunk is throttled at its reservation and retried by its Task', () => {
    const throttled = alarms.filter((a) => a.Properties.MetricName === 'Throttles').map((a) => JSON.stringify(a.Properties.Dimensions));
    expect(throttled.some((d) => d.includes('UploadsClassifyChunk'))).toBe(false);
    expect(throttled.some((d) => d.includes('UploadsFinalize'))).toBe(true);
  });

  it('the webhook auto-disable alarm reads its own stage, which every function is told', () => {
    const scoped = (stage: string) => {
      const t = Template.fromStack(new PhoneValidationStack(testApp(), `Mon${stage}`, { env: { account: '111111111111', region: 'us-east-1' }, config: parseStageConfig(stage, {}, process.cwd()) }));
      const alarm = Object.values(t.findResources('AWS::CloudWatch::Alarm')).find((a) => (a as { Properties: { MetricName?: string } }).Properties.MetricName === 'EndpointsAutoDisabled') as { Properties: { Dimensions: unknown } };
      const consumer = Object.entries(t.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('WebhooksDeliveryConsumer'))![1] as { Properties: { Environment: { Variables: Record<string, unknown> } } };
      return { dimensions: alarm.Properties.Dimensions, stage: consumer.Properties.Environment.Variables.STAGE };
    };
    expect(scoped('staging')).toEqual({ dimensions: [{ Name: 'Stage', Value: 'staging' }], stage: 'staging' });
    expect(scoped('prod')).toEqual({ dimensions: [{ Name: 'Stage', Value: 'prod' }], stage: 'prod' });
  });

  it('adds no unsuppressed cdk-nag findings', () => {
    expect(nagErrors({ alarmEmail: 'oncall@example.test' })).toEqual([]);
  });
});
