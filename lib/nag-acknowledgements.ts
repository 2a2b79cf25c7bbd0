import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

// cdk-nag AwsSolutions findings the design accepts. Each is acknowledged on the one resource it
// is about (a function, a bucket, the API), with the reason for that resource; anything not
// acknowledged fails the infrastructure test.

/** Every service function: its runtime pin, its basic log policy, and X-Ray's `*`. */
export function acknowledgeFunctionFindings(fn: IConstruct): void {
  const acknowledge = (id: string, reason: string) => Validations.of(fn).acknowledge({ id, reason });
  acknowledge('AwsSolutions-L1', 'Pinned to Node.js 22, the runtime the code, its bundles and the local tooling are built and tested for.');
  acknowledge(
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'The AWS managed basic execution policy only allows this function to write its own logs.',
  );
  acknowledge('AwsSolutions-IAM5[Resource::*]', 'Only xray:PutTraceSegments and xray:PutTelemetryRecords (active tracing), which have no resource-level permissions.');
}

/** The HTTP API: authentication is the handler's. */
export function acknowledgeApiFindings(api: IConstruct): void {
  Validations.of(api).acknowledge({
    id: 'AwsSolutions-APIG4',
    reason: "Every route authenticates the bearer API key inside the handler middleware, which must answer the spec's exact 401 bodies; only /openapi.json is public by design.",
  });
}

/** A bucket of private, short-lived objects. */
export function acknowledgeBucketFindings(bucket: IConstruct): void {
  Validations.of(bucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason: "Private, encrypted, short-lived objects reached only through the service; CloudTrail data events are the operator's choice for access auditing.",
  });
}
