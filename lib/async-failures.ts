import { Duration, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Function as LambdaFunction, type DestinationConfig, type DestinationOptions, type IDestination, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSchedule } from 'aws-cdk-lib/aws-scheduler';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { grantSendMessage } from './grants';

/**
 * Lambda's own retries of an asynchronous invocation, from how often its schedule runs: a job on a
 * `rate(…)` of minutes runs again soon (the next run is its retry), a daily `cron(…)` gets Lambda's
 * two retries before its event goes to the failure queue.
 */
export function asyncRetryAttempts(scheduleExpression: string): number {
  const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(scheduleExpression);
  if (rate) return rate[2]!.startsWith('minute') && Number(rate[1]) <= 15 ? 0 : 2;
  if (scheduleExpression.startsWith('cron(') || scheduleExpression.startsWith('at(')) return 2;
  throw new Error(`unrecognized schedule expression '${scheduleExpression}'`);
}

/** An on-failure destination that grants the function only sqs:SendMessage (what Lambda uses). */
class FailureQueueDestination implements IDestination {
  constructor(private readonly queue: IQueue) {}
  bind(_scope: Construct, fn: IFunction, _options?: DestinationOptions): DestinationConfig {
    grantSendMessage(fn as LambdaFunction, this.queue);
    return { destination: this.queue.queueArn };
  }
}

/**
 * EventBridge Scheduler invokes its Lambda targets asynchronously: the schedule's dead-letter
 * queue sees only events Lambda never accepted, and a run that throws is retried by Lambda and then
 * dropped. Every function a schedule targets gets an on-failure destination into one queue of the
 * stage (`AsyncFailures`), whose messages carry the event, the error and the request id
 * (docs/operations.md). Found over what the stack holds, so a new schedule is covered too.
 */
export class AsyncFailures extends Construct {
  readonly queue: Queue;
  /** The functions given a destination (every schedule target). */
  readonly functions: LambdaFunction[] = [];

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    this.queue = new Queue(this, 'Queue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this.queue).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'This queue is itself where failed asynchronous invocations land; it is alarmed when not empty.' });
    const byLogicalId = new Map<string, LambdaFunction>();
    for (const c of stack.node.findAll()) {
      if (c instanceof LambdaFunction) byLogicalId.set(stack.getLogicalId(c.node.defaultChild as CfnElement), c);
    }
    for (const schedule of stack.node.findAll().filter((c): c is CfnSchedule => c instanceof CfnSchedule)) {
      const target = stack.resolve((schedule.target as CfnSchedule.TargetProperty).arn) as { 'Fn::GetAtt'?: [string, string] };
      const fn = target['Fn::GetAtt'] ? byLogicalId.get(target['Fn::GetAtt'][0]) : undefined;
      if (!fn) throw new Error(`schedule ${schedule.node.path} targets no function of this stack`);
      fn.configureAsyncInvoke({
        onFailure: new FailureQueueDestination(this.queue),
        retryAttempts: asyncRetryAttempts(String(stack.resolve(schedule.scheduleExpression))),
      });
      this.functions.push(fn);
    }
  }
}
