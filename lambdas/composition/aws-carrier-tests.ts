import { perConfig } from '../platform/per-config';
import { configuredCarrierTests } from '../spam/carrier-test';
import type { SpamTestPorts } from '../spam/ports';
import { awsDeliveryPorts } from './aws';
import { withPortAtFirstUse } from './first-use';

// The AWS composition root's carrier tests, in a module of their own: only the functions that run
// tests (the test queue's consumer) and the admin CLI import it, so only they carry jpeg-js and the
// simulated call screen's font.

const awsCarrierTests = /* @__PURE__ */ perConfig(configuredCarrierTests);

/** `ports` with the carrier-test adapter the configuration names (CARRIER_TEST_PROVIDER), built at first use (also aws-all.ts). */
export const withAwsCarrierTests = <T extends object>(ports: T) => withPortAtFirstUse(ports, 'carrierTests', awsCarrierTests);

/** Running carrier tests: the test queue's consumer. */
export function awsSpamTestPorts(): SpamTestPorts {
  return withAwsCarrierTests({ ...awsDeliveryPorts() });
}
