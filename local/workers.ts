// In-process stand-ins for what AWS runs on its own (SQS consumers, EventBridge schedules), listed
// here; the local runtime starts them all with its composition root's ports after the API is up
// (what a previous process left is recovered before that: scheduled-jobs.ts, recoverBeforeServing)
// and stops them on shutdown. The workflow runner and the delivery queue belong to the root itself
// (local/composition.ts): they are ports.

import type { LocalWorker, WorkerStarter } from './local-worker';
import { startBillingPeriodSchedule, startContactPoolSchedule, startRecoverySchedule } from './scheduled-jobs';
import { startLocalWebhookSweeper } from './webhook-worker';
import { startLocalSpamSchedule } from './spam-schedule';

export const WORKER_STARTERS: WorkerStarter[] = [startContactPoolSchedule, startBillingPeriodSchedule, startLocalWebhookSweeper, startLocalSpamSchedule, startRecoverySchedule];

export type { LocalWorker, WorkerStarter };
