import type { Ports } from '../lambdas/composition/ports';

// What every in-process stand-in for an AWS service returns, so the runtime can stop it.
export interface LocalWorker {
  name: string;
  stop(): Promise<void>;
}

/** Starts one stand-in with the ports of the local composition root. */
export type WorkerStarter = (ports: Ports) => Promise<LocalWorker>;
