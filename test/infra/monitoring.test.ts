import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { nagErrors, TEMPLATE_CONTEXT } from '../support/stack';

// Nobody is left to find out by chance: every alarm notifies, every failure path is alarmed.

const app = new App({ context: { ...TEMPLATE_CONTEXT, alarmEmail: 'oncall@example.test' } });
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

  it('adds no unsuppressed cdk-nag findings', () => {
    expect(nagErrors({ alarmEmail: 'oncall@example.test' })).toEqual([]);
  });
});
