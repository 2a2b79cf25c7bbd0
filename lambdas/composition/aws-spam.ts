import { perConfig } from '../platform/per-config';
import { configuredTelephony } from '../spam/telephony';
import type { TelephonyPort } from '../spam/telephony/port';
import type { SpamNumberPorts } from '../spam/ports';
import { awsDeliveryPorts, awsOpenPorts, awsSealPorts, awsUploadPorts } from './aws';
import type { ConsolePorts } from './ports';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoMemberInviter } from '../console/cognito-inviter';
import { required } from '../platform/config';

// The AWS composition root's telephony (./aws.ts has the other ports): only the functions that send
// verification codes carry it. Carrier tests are in ./aws-carrier-tests.ts, apart again: their
// module's top level (jpeg-js, the simulated call screen's bitmap font) stays in every bundle that
// imports it, and the APIs never run a test.

const awsTelephony = /* @__PURE__ */ perConfig(configuredTelephony);

/**
 * `ports` with the telephony adapter the configuration names, built at first use: a getter (a
 * spread would build it now), so a setting it lacks (SMS_VOICE_ORIGINATION_IDENTITY…) fails the
 * send that needs it, answered as such, and never the container's start.
 */
function withTelephony<T extends object>(ports: T): T & { readonly telephony: TelephonyPort } {
  return Object.defineProperty(ports, 'telephony', { get: awsTelephony, enumerable: true }) as T & { readonly telephony: TelephonyPort };
}

/** Monitored numbers: the spam API. */
export function awsSpamNumberPorts(): SpamNumberPorts {
  return withTelephony({ ...awsDeliveryPorts() });
}

/** The console API: every feature an organization's members use, carrier tests excepted. */
export function awsConsolePorts(): ConsolePorts {
  return withTelephony({ ...awsUploadPorts(), ...awsSealPorts(), ...awsOpenPorts(), memberInviter: cognitoMemberInviter(awsCognito, () => required('CONSOLE_USER_POOL_ID')) });
}

/** The console's user pool client (invitations), made at first use. */
const awsCognito = /* @__PURE__ */ perConfig(() => new CognitoIdentityProviderClient({}));
