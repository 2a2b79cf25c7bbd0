// In-process stand-ins for what AWS runs on its own (Step Functions executions, SQS consumers,
// EventBridge schedules), listed here; the local runtime starts them all
// after the API is up and stops them on shutdown.

import type { LocalWorker, WorkerStarter } from './local-worker';
import { startBillingPeriodSchedule, startContactPoolSchedule, startRecoverySchedule } from './scheduled-jobs';
import { startLocalWorkflowRunner } from './workflow';
import { startLocalWebhookWorker } from './webhook-worker';
import { startLocalSpamSchedule } from './spam-schedule';

export const WORKER_STARTERS: WorkerStarter[] = [startLocalWorkflowRunner, startContactPoolSchedule, startBillingPeriodSchedule, startLocalWebhookWorker, startLocalSpamSchedule, startRecoverySchedule];

export type { LocalWorker, WorkerStarter };
