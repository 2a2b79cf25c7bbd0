import { Duration } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { grantTable } from './grants';
import { CONTACT_POOL_TABLE_ACCESS } from './table-access';
import { acknowledgeInvokeVersions, ServiceFunction } from './service-function';

export interface ContactsConstructProps {
  table: TableV2;
  environment: Record<string, string>;
  /** Minutes between pool runs (stage file `contactPoolMinutes`, default 5). */
  poolMinutes: number;
  /** Gives the pool job what starting an upload workflow needs (writing the pool upload's file, the state machine). */
  grantStartUploads: (fn: LambdaFunction) => void;
  /** Gives the pool job what emitting events needs (webhook queue). */
  grantEmit: (fn: LambdaFunction) => void;
}

/** The contact pool: a scheduled job that turns queued contacts into `api_pool` uploads. */
export class ContactsConstruct extends Construct {
  readonly poolJob: ServiceFunction;

  constructor(scope: Construct, id: string, props: ContactsConstructProps) {
    super(scope, id);
    this.poolJob = new ServiceFunction(this, 'PoolJob', {
      entry: 'lambdas/functions/jobs/contact-pool.ts',
      description: 'Pools queued contacts into api_pool uploads',
      environment: props.environment,
      timeout: Duration.minutes(5),
      memorySize: 1024,
    });
    // DeleteItem: queue entries of started pool uploads are removed.
    grantTable(this.poolJob, props.table, CONTACT_POOL_TABLE_ACCESS);
    props.grantStartUploads(this.poolJob);
    props.grantEmit(this.poolJob);
    new Schedule(this, 'Pool', {
      description: 'Contact pooling',
      schedule: ScheduleExpression.rate(Duration.minutes(props.poolMinutes)),
      target: new LambdaInvoke(this.poolJob, { retryAttempts: 2 }),
    });
    acknowledgeInvokeVersions(this, this.poolJob);
  }
}
