import { Duration } from 'aws-cdk-lib';
import type { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Construct } from 'constructs';
import { grantTable } from './grants';
import { BILLING_JOB_TABLE_ACCESS } from './table-access';
import { acknowledgeInvokeVersions, ServiceFunction } from './service-function';

export interface BillingConstructProps {
  table: TableV2;
  environment: Record<string, string>;
}

/** The daily billing-period job: tops up subscription pools whose monthly period has ended. */
export class BillingConstruct extends Construct {
  readonly job: ServiceFunction;

  constructor(scope: Construct, id: string, props: BillingConstructProps) {
    super(scope, id);
    this.job = new ServiceFunction(this, 'BillingPeriodJob', {
      entry: 'lambdas/functions/jobs/billing-period.ts',
      description: 'Daily: replenish subscription credit pools whose billing period ended',
      environment: props.environment,
      timeout: Duration.minutes(5),
    });
    grantTable(this.job, props.table, BILLING_JOB_TABLE_ACCESS);
    new Schedule(this, 'Daily', {
      description: 'Billing periods: replenish subscription credits',
      schedule: ScheduleExpression.cron({ minute: '15', hour: '0' }),
      target: new LambdaInvoke(this.job, { retryAttempts: 3 }),
    });
    acknowledgeInvokeVersions(this, this.job);
  }
}
