import { config } from '../platform/config';
import { configuredCarrierTests } from '../spam/carrier-test';
import type { SpamTestPorts } from '../spam/ports';
import { awsDeliveryPorts, awsOpenPorts, awsSealPorts, awsUploadPorts } from './aws';
import { awsSpamNumberPorts } from './aws-spam';
import type { Ports } from './ports';

// The AWS composition root's carrier tests, in a module of their own: only the functions that run
// tests (the test queue's consumer) and the admin CLI import it, so only they carry jpeg-js and the
// simulated call screen's font.

let tests: SpamTestPorts | null = null;

/** Running carrier tests: the adapter the configuration names (CARRIER_TEST_PROVIDER), built at first use. */
export function awsSpamTestPorts(): SpamTestPorts {
  if (!tests) {
    let carrierTests: SpamTestPorts['carrierTests'] | null = null;
    tests = {
      ...awsDeliveryPorts(),
      get carrierTests() {
        return (carrierTests ??= configuredCarrierTests(config()));
      },
    };
  }
  return tests;
}

/** Every port: the admin CLI against a deployed stack runs both the pool and spam tests. */
export function awsPorts(): Ports {
  // Getters, not spreads: spreading would build both adapters now, and fail on a setting they lack.
  const numbers = awsSpamNumberPorts();
  const tests = awsSpamTestPorts();
  return {
    ...awsUploadPorts(),
    ...awsSealPorts(),
    ...awsOpenPorts(),
    get telephony() {
      return numbers.telephony;
    },
    get carrierTests() {
      return tests.carrierTests;
    },
  };
}
