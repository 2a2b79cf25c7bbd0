import { runBillingPeriodJob } from '../lambdas/credits/billing-period-job';
import { runContactPool } from '../lambdas/contacts/pool-job';
import { recoverAfterRestart, runRecovery } from '../lambdas/recovery/recovery-job';
import { logger, withLogContext } from '../lambdas/platform/logger';

/** Taken when the runtime is loaded, before its API listens: anything older is a previous process's. */
const PROCESS_STARTED_AT = new Date().toISOString();
import type { LocalWorker } from './local-worker';
import type { Ports } from '../lambdas/composition/ports';

/**
 * Runs `job` every `intervalMs` in this process: the local stand-in for an EventBridge schedule.
 * A run still going when the next is due is skipped, as a single-concurrency Lambda would be.
 */
export function everyInterval(name: string, intervalMs: number, job: () => Promise<unknown>): LocalWorker {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // A fresh log context per run, as a new Lambda invocation would have.
    void withLogContext(async () => {
      logger.appendKeys({ job: name });
      try {
        await job();
      } catch (error) {
        logger.error(`local schedule ${name} failed`, { error: error as Error });
      } finally {
        running = false;
      }
    });
  }, intervalMs);
  timer.unref();
  return { name, stop: async () => clearInterval(timer) };
}

export const startBillingPeriodSchedule = async (): Promise<LocalWorker> =>
  everyInterval('billing-period', Number(process.env.LOCAL_BILLING_JOB_INTERVAL_MS ?? 3_600_000), runBillingPeriodJob);

/** Contacts are pooled every CONTACT_POOL_INTERVAL_MS locally (default 15 s; 5 minutes in AWS). */
export const startContactPoolSchedule = async (ports: Ports): Promise<LocalWorker> =>
  everyInterval('contact-pool', Number(process.env.CONTACT_POOL_INTERVAL_MS ?? 15_000), () => runContactPool(ports));

/**
 * What the previous process left (every upload it left ready or processing: the in-process workflow
 * runner lost its executions with it; slots, claims, marks and events of requests it was serving)
 * is recovered before this one serves its first request, so no request meets it half-recovered
 * (a phone still claimed by an add that died, a slot still counted).
 */
export const recoverBeforeServing = (ports: Ports): Promise<void> =>
  recoverAfterRestart(ports, PROCESS_STARTED_AT).catch((error: unknown) => logger.error('recovery after a restart failed', { error: error as Error }));

/** Recovery every LOCAL_RECOVERY_INTERVAL_MS (default 60 s; 5 minutes in AWS). */
export const startRecoverySchedule = async (ports: Ports): Promise<LocalWorker> =>
  everyInterval('recovery', Number(process.env.LOCAL_RECOVERY_INTERVAL_MS ?? 60_000), () => runRecovery(ports));
