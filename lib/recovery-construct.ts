import { Duration } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { grantTable } from './grants';
import { RECOVERY_JOB_TABLE_ACCESS } from './table-access';
import { acknowledgeInvokeVersions, ServiceFunction } from './service-function';

export interface RecoveryConstructProps {
  table: TableV2;
  environment: Record<string, string>;
  /** What finishing, failing and restarting uploads needs (files bucket, state machine, signing). */
  grantUploads: (fn: LambdaFunction) => void;
  /** What publishing events needs (webhook queue). */
  grantEmit: (fn: LambdaFunction) => void;
}

/**
 * The recovery job (docs/reliability.md): every 5 minutes, drives uploads and contacts an
 * interruption left non-terminal to a terminal state, gives back the phone and slot of a spam
 * number add or delete cut short, and publishes events a crash left unpublished. Its timeout stays below the 10-minute claims it takes on each item.
 */
export class RecoveryConstruct extends Construct {
  readonly job: ServiceFunction;

  constructor(scope: Construct, id: string, props: RecoveryConstructProps) {
    super(scope, id);
    this.job = new ServiceFunction(this, 'Job', {
      entry: 'lambdas/functions/jobs/recovery.ts',
      description: 'Recovers interrupted uploads, contacts and spam number changes; publishes unpublished events',
      environment: props.environment,
      timeout: Duration.minutes(5),
      memorySize: 1024,
    });
    // DeleteItem: a `charging` upload that was never charged is removed, a spam phone claim whose number never came.
    grantTable(this.job, props.table, RECOVERY_JOB_TABLE_ACCESS);
    props.grantUploads(this.job);
    props.grantEmit(this.job);
    new Schedule(this, 'Every5Minutes', {
      description: 'Recovery of interrupted work',
      schedule: ScheduleExpression.rate(Duration.minutes(5)),
      target: new LambdaInvoke(this.job, { retryAttempts: 2 }),
    });
    acknowledgeInvokeVersions(this, this.job);
  }
}
