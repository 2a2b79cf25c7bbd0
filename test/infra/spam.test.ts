import { describe, expect, it } from 'vitest';

import { Match, Template } from 'aws-cdk-lib/assertions';
import { PhoneValidationStack } from '../../lib/service-stack';
import { parseStageConfig } from '../../lib/stage-config';
import { nagErrors, synthStack, testApp } from '../support/stack';

describe('spam monitoring infrastructure', () => {
  const { template } = synthStack();
  const functions = template.findResources('AWS::Lambda::Function');
  const logicalIdOf = (entryWord: string) =>
    Object.entries(functions).find(([, f]) => String(f.Properties.Description ?? '').includes(entryWord))?.[0];

  it('schedules the daily run on EventBridge Scheduler against the planning Lambda, which only queues', () => {
    const run = logicalIdOf('Daily: plan the tests');
    expect(run).toBeDefined();
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      Description: 'Spam monitoring: daily carrier tests',
      ScheduleExpression: 'cron(0 14 * * ? *)',
      Target: Match.objectLike({ Arn: { 'Fn::GetAtt': [run, 'Arn'] }, RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 2 }) }),
    });
    expect(functions[run!]!.Properties).toMatchObject({ Timeout: 900, Runtime: 'nodejs22.x' });
    expect(functions[run!]!.Properties.Environment.Variables).toMatchObject({
      CARRIER_TEST_PROVIDER: 'simulator',
      SPAM_QUEUE_URL: { Ref: expect.stringMatching(/^SpamTestQueue/) },
      TABLE_NAME: { Ref: expect.stringMatching(/^DataTable/) },
    });
    // The planner tests nothing itself: no device-lab token, no screenshot writes.
    expect(functions[run!]!.Properties.Environment.Variables.DEVICE_LAB_TOKEN_SECRET_ARN).toBeUndefined();
  });

  it('fans out through a queue: one item per invocation, bounded concurrency (reserved only with reserveConcurrency), retried per item, then an alarmed DLQ', () => {
    const consumer = logicalIdOf('tests one monitored number on one carrier');
    expect(consumer).toBeDefined();
    const props = functions[consumer!]!.Properties;
    expect(props.ReservedConcurrentExecutions).toBeUndefined();
    expect(props.Timeout).toBe(420);
    expect(props.Environment.Variables).toMatchObject({
      CARRIER_TEST_PROVIDER: 'simulator',
      DEVICE_LAB_TOKEN_SECRET_ARN: { Ref: expect.stringMatching(/^SpamDeviceLabToken/) },
      SCREENSHOTS_BUCKET: { Ref: expect.stringMatching(/^DataScreenshots/) },
      SPAM_ITEM_ATTEMPTS: '3',
      SPAM_TEST_TIMEOUT_MS: '360000',
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: consumer },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^SpamTestQueue'), 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 10 },
    });
    const queues = template.findResources('AWS::SQS::Queue');
    const [queueId, queue] = Object.entries(queues).find(([id]) => id.startsWith('SpamTestQueue'))!;
    expect(queueId).toBeDefined();
    expect(queue.Properties.VisibilityTimeout).toBe(6 * 420);
    expect(queue.Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^SpamTestDlq/), 'Arn'] }, maxReceiveCount: 3 });
    const dlq = Object.keys(queues).find((id) => id.startsWith('SpamTestDlq'))!;
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).filter((a) => JSON.stringify(a.Properties.Dimensions ?? []).includes(dlq));
    expect(alarms).toHaveLength(1);
    expect(alarms[0]!.Properties.AlarmActions).toEqual([{ Ref: expect.stringMatching(/^MonitoringAlarms/) }]);
  });

  it('takes concurrency, tries and the test timeout from the stage configuration', () => {
    const app = testApp();
    const config = parseStageConfig('spamcfg', { reserveConcurrency: true, spam: { concurrency: 25, itemAttempts: 5, testTimeoutSeconds: 120 } }, process.cwd());
    const t = Template.fromStack(new PhoneValidationStack(app, 'SpamCfg', { env: { account: '111111111111', region: 'us-east-1' }, config }));
    const fns = t.findResources('AWS::Lambda::Function');
    const consumer = Object.values(fns).find((f) => String(f.Properties.Description).includes('tests one monitored number'))!;
    expect(consumer.Properties.ReservedConcurrentExecutions).toBe(25);
    expect(consumer.Properties.Timeout).toBe(180);
    expect(consumer.Properties.Environment.Variables).toMatchObject({ SPAM_ITEM_ATTEMPTS: '5', SPAM_TEST_TIMEOUT_MS: '120000' });
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 25 } });
    t.hasResourceProperties('AWS::SQS::Queue', { RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }) });
    expect(() => parseStageConfig('bad', { spam: { concurrency: 1 } }, process.cwd())).toThrow(/spam\.concurrency/);
  });

  it('keeps screenshots 7 days in an encrypted, private, TLS-only bucket', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: 7, Status: 'Enabled' })]) },
      BucketEncryption: Match.anyValue(),
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
  });

  it('holds the device-lab token in Secrets Manager, readable by the test consumer', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', { Description: Match.stringLikeRegexp('device-lab') });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'secretsmanager:GetSecretValue', Resource: { Ref: Match.stringLikeRegexp('^SpamDeviceLabToken') } })]) },
    });
  });

  it('grants SMS/Voice sending to nobody in simulator mode', () => {
    const api = logicalIdOf('API: spam');
    expect(api).toBeDefined();
    expect(functions[api!]!.Properties.Environment.Variables).toMatchObject({ TELEPHONY_PROVIDER: 'simulator', SMS_VOICE_ORIGINATION_IDENTITY: '' });
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('sms-voice:');
  });

  it('lets only the spam API function and the console function (its spam page) send codes through End User Messaging SMS and Voice v2, from the configured identity', () => {
    const sendingPolicies = (origination: string) => {
      const app = testApp({ spamOriginationIdentity: origination });
      const stack = new PhoneValidationStack(app, 'SmsStack', { env: { account: '111111111111', region: 'us-east-1' } });
      return Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
        .flatMap((p) => (p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]).map((s) => ({ roles: p.Properties.Roles, ...s })))
        .filter((s) => JSON.stringify(s.Action).includes('sms-voice:'));
    };
    const arn = 'arn:aws:sms-voice:us-east-1:111111111111:phone-number/phone-0123456789abcdef';
    const byArn = sendingPolicies(arn);
    expect(byArn).toHaveLength(2);
    for (const [i, role] of [/^ApiSpamFunctionServiceRole/, /^ConsoleApiFunctionServiceRole/].entries()) {
      expect(byArn[i]).toMatchObject({ Action: ['sms-voice:SendTextMessage', 'sms-voice:SendVoiceMessage'], Resource: arn, roles: [{ Ref: expect.stringMatching(role) }] });
    }
    const byNumber = sendingPolicies('+12025550100');
    expect(byNumber).toHaveLength(2);
    for (const statement of byNumber) {
      expect(JSON.stringify(statement.Resource)).toContain(':sms-voice:');
      expect(statement.Resource).not.toBe('*');
    }
    expect(nagErrors({ spamOriginationIdentity: '+12025550100' })).toEqual([]);
  });

  it('routes every spam endpoint to the spam function', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    for (const key of [
      'POST /api/v1/spam/numbers',
      'GET /api/v1/spam/numbers',
      'GET /api/v1/spam/numbers/{number_id}',
      'DELETE /api/v1/spam/numbers/{number_id}',
      'POST /api/v1/spam/numbers/{number_id}/verify',
      'POST /api/v1/spam/numbers/{number_id}/verify/resend',
      'GET /api/v1/spam/numbers/{number_id}/history',
      'GET /api/v1/spam/numbers/{number_id}/screenshot',
    ]) expect(routes).toContain(key);
  });

  it('adds no unsuppressed cdk-nag findings', () => {
    expect(nagErrors()).toEqual([]);
  });

  it('reads and writes screenshots only under their prefix', () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 's3:PutObject', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [Match.stringLikeRegexp('^DataScreenshots'), 'Arn'] }, '/spam/*']] } }),
        ]),
      },
    });
  });
});
