import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { synthStack } from '../support/stack';

describe('webhook delivery infrastructure', () => {
  const { template, stack } = synthStack();
  const resolve = (value: unknown) => stack.resolve(value) as unknown;
  const queueId = stack.getLogicalId(stack.webhooks.queue.node.defaultChild as never);
  const dlqId = stack.getLogicalId(stack.webhooks.deadLetterQueue.node.defaultChild as never);
  const consumerId = stack.getLogicalId(stack.webhooks.consumer.node.defaultChild as never);
  const sweeperId = stack.getLogicalId(stack.webhooks.sweeper.node.defaultChild as never);

  it('has an encrypted, TLS-only delivery queue with a dead-letter queue', () => {
    const queue = template.toJSON().Resources[queueId];
    expect(queue.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 360,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 },
    });
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('consumes the queue with per-item batch failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: consumerId },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 10,
    });
  });

  it('runs the sweeper every minute', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'rate(1 minute)',
      Target: Match.objectLike({ Arn: { 'Fn::GetAtt': [sweeperId, 'Arn'] } }),
    });
  });

  it('gives the queue URL to the workers and to the API functions that publish events, and never the loopback setting', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Runtime === 'nodejs22.x');
    const ours = [consumerId, sweeperId].map((id) => template.toJSON().Resources[id]);
    for (const fn of ours) expect(fn.Properties.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({ Ref: queueId });
    for (const [name, fn] of stack.api.functions) {
      const props = template.toJSON().Resources[stack.getLogicalId(fn.node.defaultChild as never)].Properties;
      // Only uploads (upload.created…) and spam (number.verified) publish from a request; webhooks queues a redelivery.
      if (['uploads', 'spam', 'webhooks'].includes(name)) expect(props.Environment.Variables.WEBHOOK_QUEUE_URL).toEqual({ Ref: queueId });
      else expect(props.Environment.Variables).not.toHaveProperty('WEBHOOK_QUEUE_URL');
    }
    for (const fn of functions) {
      const vars = fn.Properties.Environment?.Variables ?? {};
      expect(vars).not.toHaveProperty('WEBHOOKS_ALLOW_LOOPBACK');
      expect(vars.DEPLOYMENT).toBe('aws');
    }
  });

  it('grants the workers only the table, the queue and opening signing secrets', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const sweeperRole = resolve(stack.webhooks.sweeper.role!.roleName);
    const sweeperPolicy = policies.find((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([sweeperRole]));
    expect(sweeperPolicy).toBeDefined();
    const actions = (sweeperPolicy!.Properties.PolicyDocument.Statement as Array<{ Action: string | string[] }>).flatMap((s) => [s.Action].flat());
    for (const action of actions) expect(action).toMatch(/^(dynamodb:(GetItem|Query|UpdateItem)$|sqs:SendMessage$|kms:Decrypt$|xray:)/);
  });

  it('alarms on the dead-letter queue and on auto-disabled endpoints', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Namespace: 'AWS/SQS',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlqId, 'QueueName'] } }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // This stage's endpoints only: the Stage dimension the functions write (their STAGE).
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'EndpointsAutoDisabled',
      Namespace: 'PhoneValidation/Webhooks',
      Dimensions: [{ Name: 'Stage', Value: 'context' }],
      Statistic: 'Sum',
      Threshold: 1,
    });
    const consumer = Object.values(template.findResources('AWS::Lambda::Function')).find((f) => String(f.Properties.Description).startsWith('Webhooks: makes due'))!;
    expect(consumer.Properties.Environment.Variables.STAGE).toBe('context');
  });
});
