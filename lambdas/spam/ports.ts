import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import type { CarrierTestPort } from './carrier-test/port';
import type { TelephonyPort } from './telephony/port';

/** Adding and verifying monitored numbers: verification codes go out by SMS or voice call. */
export interface SpamNumberPorts extends DeliveryPorts {
  readonly telephony: TelephonyPort;
}

/** Running carrier tests: the daily run in one process, or one work item per queue message. */
export interface SpamTestPorts extends DeliveryPorts {
  readonly carrierTests: CarrierTestPort;
}

/** What the spam monitoring use cases are given by their runtime's composition root. */
export interface SpamPorts extends SpamNumberPorts, SpamTestPorts {}
