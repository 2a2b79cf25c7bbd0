import { config, required } from '../platform/config';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import { sqsDeliveryQueue } from '../webhooks/sqs-delivery-queue';
import { systemNet, type NetPorts } from '../platform/net/outbound';
import { kmsSecretSealer } from '../webhooks/kms-sealer';
import { kmsSecretOpener } from '../webhooks/kms-opener';
import type { OpenPorts, SealPorts } from '../webhooks/secret-sealer';

// The AWS composition root: every Lambda entry (API handlers, workflow steps, the SQS consumer,
// scheduled jobs) takes its ports from here, built once per container from the parsed
// configuration. Each adapter creates its SDK client at first use, and a missing setting fails only
// the call that needs it. One builder per group of ports, so a function's bundle carries only the
// adapters it can use (esbuild drops the others). The spam ports live in modules of their own,
// because esbuild keeps a module with top-level work once it is imported, used or not: telephony in
// ./aws-spam.ts (the functions that send verification codes), carrier tests in
// ./aws-carrier-tests.ts (the test consumer and the admin CLI; jpeg-js and the call screen's font);
// the classification provider in ./aws-classification.ts (the chunk step and the carrier tests:
// libphonenumber-js and the +1 tables, which no other function's cold start needs); the upload
// workflow's ports in ./aws-uploads.ts (the uploads API, the contact pool, recovery, the console:
// Step Functions and the contacts' pool settling, which carry the uploads feature).

let net: NetPorts | null = null;
let delivery: DeliveryPorts | null = null;
let seal: SealPorts | null = null;
let open: OpenPorts | null = null;

/** Reaching customer-supplied URLs: the system's resolver and CAs, 10 s per attempt. */
export function awsNetPorts(): NetPorts {
  net ??= { net: systemNet() };
  return net;
}

/** Emitting events, scheduling and making attempts: SQS when WEBHOOK_QUEUE_URL is set, else none (the sweeper finds due deliveries). */
export function awsDeliveryPorts(): DeliveryPorts {
  const url = config().WEBHOOK_QUEUE_URL;
  delivery ??= { ...awsNetPorts(), deliveryQueue: url ? sqsDeliveryQueue(url) : null };
  return delivery;
}

/** Sealing new signing secrets with KMS Encrypt (SECRETS_KMS_KEY_ARN): endpoint registration, contact creation. */
export function awsSealPorts(): SealPorts {
  seal ??= { sealer: kmsSecretSealer(() => required('SECRETS_KMS_KEY_ARN')) };
  return seal;
}

/** Opening stored signing secrets with KMS Decrypt: only the functions that sign (deliveries, the URL-change ping). */
export function awsOpenPorts(): OpenPorts {
  open ??= { opener: kmsSecretOpener(() => required('SECRETS_KMS_KEY_ARN')) };
  return open;
}
