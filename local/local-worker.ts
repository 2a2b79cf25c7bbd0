// What every in-process stand-in for an AWS service returns, so the runtime can stop it.
export interface LocalWorker {
  name: string;
  stop(): Promise<void>;
}

export type WorkerStarter = () => Promise<LocalWorker>;
