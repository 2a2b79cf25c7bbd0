import { config } from '../platform/config';
import { configuredTelephony } from '../spam/telephony';
import type { SpamNumberPorts } from '../spam/ports';
import { awsDeliveryPorts, awsOpenPorts, awsSealPorts, awsUploadPorts } from './aws';
import type { ConsolePorts } from './ports';

// The AWS composition root's telephony (./aws.ts has the other ports): only the functions that send
// verification codes carry it. Carrier tests are in ./aws-carrier-tests.ts, apart again: their
// module's top level (jpeg-js, the simulated call screen's bitmap font) stays in every bundle that
// imports it, and the APIs never run a test.

let numbers: SpamNumberPorts | null = null;

/**
 * Monitored numbers: the telephony adapter the configuration names, built at first use, so a
 * setting it lacks (SMS_VOICE_ORIGINATION_IDENTITY…) fails the send that needs it, answered as such,
 * and never the container's start.
 */
export function awsSpamNumberPorts(): SpamNumberPorts {
  if (!numbers) {
    let telephony: SpamNumberPorts['telephony'] | null = null;
    numbers = {
      ...awsDeliveryPorts(),
      get telephony() {
        return (telephony ??= configuredTelephony(config()));
      },
    };
  }
  return numbers;
}

/** The console API: every feature an organization's members use, carrier tests excepted. */
export function awsConsolePorts(): ConsolePorts {
  const spam = awsSpamNumberPorts();
  return {
    ...awsUploadPorts(),
    ...awsSealPorts(),
    ...awsOpenPorts(),
    get telephony() {
      return spam.telephony;
    },
  };
}
