import { nowMs } from '../lambdas/platform/clock';
import { logger } from '../lambdas/platform/logger';
import type { DeliveryPorts, DeliveryQueue } from '../lambdas/webhooks/delivery-queue-port';
import { processDelivery } from '../lambdas/webhooks/delivery';
import type { OpenPorts } from '../lambdas/webhooks/secret-sealer';
import { sweepDueDeliveries } from '../lambdas/webhooks/sweeper';
import { pendingDeliveriesByDue } from '../lambdas/webhooks/delivery-repository';
import type { LocalWorker } from './local-worker';

// Node timers cannot wait longer than about 24.8 days; our longest wait is 12 h.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The local stand-in for the SQS delay queue: each attempt runs in this process when due, with the
 * ports of the root that built the queue. Timers are not durable; the records are, and the sweeper
 * picks up whatever a restart dropped.
 */
export function createLocalDeliveryQueue(ports: DeliveryPorts & OpenPorts): DeliveryQueue & { stop(): Promise<void> } {
  const timers = new Map<NodeJS.Timeout, { deliveryId: string; dueAtMs: number }>();
  const sending = new Set<Promise<unknown>>();
  let stopped = false;
  const attempt = (deliveryId: string) => {
    const sent = processDelivery(ports, deliveryId)
      .then((result) => (result.kind === 'not_due' ? queue.enqueue(deliveryId, result.dueAtMs) : undefined))
      .catch((error: unknown) => logger.error('local webhook delivery failed', { delivery_id: deliveryId, error: error as Error }))
      .finally(() => sending.delete(sent));
    sending.add(sent);
  };
  const queue = {
    async enqueue(deliveryId: string, dueAtMs: number) {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        attempt(deliveryId);
      }, Math.min(MAX_TIMER_MS, Math.max(0, dueAtMs - nowMs())));
      timer.unref();
      timers.set(timer, { deliveryId, dueAtMs });
    },
    /**
     * Attempts what is due now (an upload that finished while the runtime stopped: its customer
     * hears of it now, not at the next start's sweep), drops the later retries (their records stay
     * for the sweeper), and waits for the attempts under way, so none outlives its runtime.
     */
    async stop() {
      stopped = true;
      const now = nowMs();
      for (const [timer, { deliveryId, dueAtMs }] of timers) {
        clearTimeout(timer);
        if (dueAtMs <= now) attempt(deliveryId);
      }
      timers.clear();
      await Promise.all(sending);
    },
  };
  return queue;
}

/**
 * The local stand-in for the sweeper's schedule. First, the retries a previous process had waiting
 * in its timers are armed again, each for its own due time (one due while the service was stopped:
 * now): otherwise each would wait for a sweep that takes only deliveries a minute overdue, up to
 * two minutes late after every restart.
 */
export async function startLocalWebhookSweeper(ports: DeliveryPorts & OpenPorts): Promise<LocalWorker> {
  const queue = ports.deliveryQueue;
  if (queue) {
    try {
      let armed = 0;
      for await (const { id, dueAtMs } of pendingDeliveriesByDue()) {
        await queue.enqueue(id, dueAtMs);
        armed++;
      }
      if (armed) logger.info('webhook retries left by the previous process armed again', { count: armed });
    } catch (error) {
      logger.error('webhook retries could not be armed again at start; the sweeper takes them once a minute overdue', { error: error as Error });
    }
  }
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepDueDeliveries(ports, { overdueMs: Number(process.env.LOCAL_WEBHOOK_SWEEP_OVERDUE_MS ?? 60_000) })
      .catch((error: unknown) => logger.error('local webhook sweep failed', { error: error as Error }))
      .finally(() => {
        sweeping = false;
      });
  }, Number(process.env.LOCAL_WEBHOOK_SWEEP_INTERVAL_MS ?? 60_000));
  sweeper.unref();
  return { name: 'webhook-sweeper', stop: async () => clearInterval(sweeper) };
}
