import { perConfig } from '../platform/per-config';
import { configuredTelephony } from '../spam/telephony';
import type { SpamNumberPorts } from '../spam/ports';
import { awsDeliveryPorts, awsOpenPorts, awsSealPorts } from './aws';
import { awsWorkflowPorts } from './aws-uploads';
import type { ConsolePorts } from './ports';
import { withPortAtFirstUse } from './first-use';
import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoMemberInviter } from '../console/cognito-inviter';
import { lazyModule } from '../platform/aws/lazy-module';
import { required } from '../platform/config';

// The AWS composition root's telephony (./aws.ts has the other ports): only the functions that send
// verification codes carry it. Carrier tests are in ./aws-carrier-tests.ts, apart again: their
// module's top level (jpeg-js, the simulated call screen's bitmap font) stays in every bundle that
// imports it, and the APIs never run a test.

const awsTelephony = /* @__PURE__ */ perConfig(configuredTelephony);

/** `ports` with the telephony adapter the configuration names, built at first use (a setting it lacks, SMS_VOICE_ORIGINATION_IDENTITY…, fails only the send that needs it). */
const withTelephony = <T extends object>(ports: T) => withPortAtFirstUse(ports, 'telephony', awsTelephony);

/** Monitored numbers: the spam API. */
export function awsSpamNumberPorts(): SpamNumberPorts {
  return withTelephony({ ...awsDeliveryPorts() });
}

/** The console API: every feature an organization's members use, carrier tests excepted. */
export function awsConsolePorts(): ConsolePorts {
  return withTelephony({ ...awsWorkflowPorts(), ...awsSealPorts(), ...awsOpenPorts(), memberInviter: cognitoMemberInviter(awsCognito, () => required('CONSOLE_USER_POOL_ID')) });
}

/** The console's user pool client (invitations), loaded and made at the first invitation. */
const cognitoUsers = /* @__PURE__ */ lazyModule(() => import('../console/cognito-users'));
let cognitoClient: Promise<CognitoIdentityProviderClient> | undefined;
const awsCognito = (): Promise<CognitoIdentityProviderClient> => (cognitoClient ??= cognitoUsers().then((m) => m.newCognitoClient()));
