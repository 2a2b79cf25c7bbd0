import { config, required } from '../platform/config';
import { configuredCarrierTests } from '../spam/carrier-test';
import { configuredTelephony } from '../spam/telephony';
import { sfnWorkflowStarter } from '../uploads/sfn-workflow-starter';
import { sqsDeliveryQueue } from '../webhooks/sqs-delivery-queue';
import type { Ports } from './ports';

// The AWS composition root: every Lambda entry (API handlers, workflow steps, consumers, scheduled
// jobs) takes its ports from here. Built once per container from the parsed configuration; each
// adapter creates its SDK client at first use, so a function that never starts a workflow never
// builds a Step Functions client, and a missing setting fails only the call that needs it.

let ports: Ports | null = null;

export function awsPorts(): Ports {
  if (ports) return ports;
  const cfg = config();
  let telephony: Ports['telephony'] | null = null;
  let carrierTests: Ports['carrierTests'] | null = null;
  ports = {
    workflow: sfnWorkflowStarter(() => required('UPLOAD_STATE_MACHINE_ARN')),
    // Without a queue (a function that only records deliveries), the sweeper finds them when due.
    deliveryQueue: cfg.WEBHOOK_QUEUE_URL ? sqsDeliveryQueue(cfg.WEBHOOK_QUEUE_URL) : null,
    get telephony() {
      return (telephony ??= configuredTelephony(cfg));
    },
    get carrierTests() {
      return (carrierTests ??= configuredCarrierTests(cfg));
    },
  };
  return ports;
}
