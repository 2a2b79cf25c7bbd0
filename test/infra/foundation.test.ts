import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { nagErrors, synthStack } from '../support/stack';
import { ROUTES } from '../../lambdas/api/routes';

describe('foundation stack', () => {
  const { template } = synthStack();

  it('has the single table with its keys, indexes, PITR and TTL', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      GlobalSecondaryIndexes: [
        Match.objectLike({ IndexName: 'gsi1' }),
        Match.objectLike({ IndexName: 'gsi2' }),
        Match.objectLike({ IndexName: 'gsi3' }),
      ],
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('encrypts buckets, blocks public access and requires TLS', () => {
    const buckets = template.findResources('AWS::S3::Bucket');
    expect(Object.keys(buckets).length).toBeGreaterThanOrEqual(2);
    for (const bucket of Object.values(buckets)) {
      expect(bucket.Properties.BucketEncryption).toBeDefined();
      expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
    }
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('runs every Lambda on Node 22, arm64, with tracing', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => !String(f.Properties.Handler ?? '').startsWith('framework') && f.Properties.Runtime?.startsWith?.('nodejs'),
    );
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      expect(fn.Properties.Runtime).toBe('nodejs22.x');
      expect(fn.Properties.Architectures).toEqual(['arm64']);
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
  });

  it('creates one API route per route-table entry plus the $default fallback', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    for (const route of ROUTES) expect(routes).toContain(`${route.method} ${route.path}`);
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: '$default' });
  });

  it('has no unsuppressed cdk-nag AwsSolutions errors', () => {
    expect(nagErrors()).toEqual([]);
  });
});

describe('billing period schedule', () => {
  const { template } = synthStack();
  it('invokes the billing job daily through EventBridge Scheduler', () => {
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(15 0 * * ? *)',
      Target: Match.objectLike({ RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 3 }) }),
    });
  });
});
