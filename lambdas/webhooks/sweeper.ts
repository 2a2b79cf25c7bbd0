import { nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { dueDeliveryIds } from './delivery-repository';
import { processDelivery } from './delivery';
import type { DeliveryPorts } from './delivery-queue-port';
import type { OpenPorts } from './secret-sealer';

export interface SweepOptions {
  /**
   * Only deliveries at least this overdue; the queue normally handles them on time, so the
   * sweeper picks up what a lost message or a crashed worker left behind. Default 60 s.
   */
  overdueMs?: number;
  /** Most deliveries per run (default 200). */
  limit?: number;
  /** Attempts in parallel (default 10). */
  concurrency?: number;
}

/** Every minute (EventBridge Scheduler in AWS, a timer locally): attempts deliveries that are due. */
export async function sweepDueDeliveries(ports: DeliveryPorts & OpenPorts, options: SweepOptions = {}): Promise<{ found: number; attempted: number }> {
  const dueBy = new Date(nowMs() - (options.overdueMs ?? 60_000)).toISOString();
  const ids = await dueDeliveryIds(dueBy, options.limit ?? 200);
  let attempted = 0;
  const queue = [...ids];
  const worker = async () => {
    for (let id = queue.shift(); id; id = queue.shift()) {
      try {
        const result = await processDelivery(ports, id);
        if (result.kind === 'attempted' || result.kind === 'skipped') attempted++;
      } catch (error) {
        logger.error('webhook sweep: delivery failed', { delivery_id: id, error: error as Error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 10, ids.length) }, worker));
  if (ids.length) logger.info('webhook sweep', { found: ids.length, attempted });
  return { found: ids.length, attempted };
}
