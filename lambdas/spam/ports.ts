import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import type { CarrierTestPort } from './carrier-test/port';
import type { TelephonyPort } from './telephony/port';

/** What the spam monitoring use cases are given by their runtime's composition root. */
export interface SpamPorts extends DeliveryPorts {
  readonly telephony: TelephonyPort;
  readonly carrierTests: CarrierTestPort;
}
