import { config } from '../platform/config';
import { configuredCarrierTests } from '../spam/carrier-test';
import { configuredTelephony } from '../spam/telephony';
import type { SpamPorts } from '../spam/ports';
import { awsDeliveryPorts, awsOpenPorts, awsSealPorts, awsUploadPorts } from './aws';
import type { Ports } from './ports';

// The AWS composition root's spam monitoring ports (./aws.ts has the others), in a module of its
// own so that only the functions that can send tests and calls carry the telephony and
// carrier-test adapters (jpeg-js, the bitmap font of the simulated call screen).

let spam: SpamPorts | null = null;

/**
 * Spam monitoring: the telephony and carrier-test adapters the configuration names, each built at
 * first use, so a setting they lack (SMS_VOICE_ORIGINATION_IDENTITY…) fails the send that needs
 * it, answered as such, and never the container's start.
 */
export function awsSpamPorts(): SpamPorts {
  if (!spam) {
    let telephony: SpamPorts['telephony'] | null = null;
    let carrierTests: SpamPorts['carrierTests'] | null = null;
    spam = {
      ...awsDeliveryPorts(),
      get telephony() {
        return (telephony ??= configuredTelephony(config()));
      },
      get carrierTests() {
        return (carrierTests ??= configuredCarrierTests(config()));
      },
    };
  }
  return spam;
}

/** Every port (the console API and the admin CLI against a deployed stack use both features). */
export function awsPorts(): Ports {
  const spamPorts = awsSpamPorts();
  return {
    ...awsUploadPorts(),
    ...awsSealPorts(),
    ...awsOpenPorts(),
    get telephony() {
      return spamPorts.telephony;
    },
    get carrierTests() {
      return spamPorts.carrierTests;
    },
  };
}
