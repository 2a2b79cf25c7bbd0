import { config } from '../lambdas/platform/config';
import type { Ports } from '../lambdas/composition/ports';
import { systemNet } from '../lambdas/platform/net/outbound';
import { settlePoolUpload } from '../lambdas/contacts/pool-settle';
import { configuredCarrierTests } from '../lambdas/spam/carrier-test';
import { configuredTelephony } from '../lambdas/spam/telephony';
import { providerOncePerConfig } from '../lambdas/classification';
import { createLocalDeliveryQueue } from './webhook-worker';
import { createUploadWorkflowRunner } from './workflow';
import { localSecretSealer, localSecretsKey } from './local-secret-sealer';

/** Stand-ins a test (or the admin CLI) puts in place of the local ones; each defaults to the configured adapter. */
export type PortOverrides = Partial<Ports>;

export interface LocalRoot {
  readonly ports: Ports;
  /** Waits until every workflow started so far, queued ones included, has ended (tests, the admin CLI). */
  settleWorkflows(): Promise<void>;
  /** Stops the workflow runner (waiting for running steps), drops pending delivery timers and waits for attempts under way. */
  stop(): Promise<void>;
}

/**
 * The local composition root (`npm start`, the admin CLI, tests): the same ports the AWS root builds
 * (lambdas/composition/aws.ts), with in-process stand-ins: the upload workflow's ASL run by
 * aws-local-stepfunctions, a timer queue for webhook deliveries, and the telephony and carrier-test
 * adapters the configuration names (simulators by default). Built after the runtime (or the admin
 * CLI) has configured its settings and bound its storage (lambdas/platform/storage.ts); nothing of
 * it outlives `stop()`. Signing secrets are
 * sealed with the key in `dataDir` (created there at first start), or a key of this process when
 * there is no data folder (tests: the table is in memory too).
 */
export function createLocalRoot(overrides: PortOverrides = {}, options: { dataDir: string | null } = { dataDir: null }): LocalRoot {
  const cfg = config();
  // The runner and the queue run use cases that need the ports they are part of.
  const ports = {} as { -readonly [K in keyof Ports]: Ports[K] };
  const runner = createUploadWorkflowRunner(ports);
  const queue = createLocalDeliveryQueue(ports);
  ports.net = overrides.net ?? systemNet();
  ports.workflow = overrides.workflow ?? (async (uploadId) => runner.start(uploadId, { upload_id: uploadId }));
  ports.deliveryQueue = 'deliveryQueue' in overrides ? (overrides.deliveryQueue ?? null) : queue;
  ports.settlePool = overrides.settlePool ?? ((upload) => settlePoolUpload(ports, upload));
  const secrets = overrides.sealer && overrides.opener ? null : localSecretSealer(localSecretsKey(options.dataDir));
  ports.sealer = overrides.sealer ?? secrets!;
  ports.opener = overrides.opener ?? secrets!;
  // Built at the first chunk and reused by every later one, as in a Lambda container.
  ports.provider = overrides.provider ?? providerOncePerConfig();
  // Built at first use, as in AWS: a setting an adapter lacks fails the call that needs it.
  let telephony = overrides.telephony ?? null;
  let carrierTests = overrides.carrierTests ?? null;
  Object.defineProperties(ports, {
    telephony: { enumerable: true, get: () => (telephony ??= configuredTelephony(cfg)) },
    carrierTests: { enumerable: true, get: () => (carrierTests ??= configuredCarrierTests(cfg)) },
  });
  return {
    ports,
    settleWorkflows: () => runner.settle(),
    // The workflows first: an upload they finish announces itself, and the queue then sends what is due.
    stop: async () => {
      await runner.stop();
      await queue.stop();
    },
  };
}
