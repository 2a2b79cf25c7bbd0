import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { lazyModule } from '../platform/aws/lazy-module';
import type { MemberInviter } from './member-inviter';

// Loaded at the first invitation: the Cognito client stays out of the console's cold start.
const cognitoUsers = /* @__PURE__ */ lazyModule(() => import('./cognito-users'));

/**
 * Invitations in AWS: Cognito's AdminCreateUser for the new service user (username = its id, the
 * email verified), and Cognito emails the temporary password; the person sets their own password
 * and an authenticator app at first sign-in (cognito-users.ts). The owner is told it was emailed.
 */
export function cognitoMemberInviter(client: () => CognitoIdentityProviderClient | Promise<CognitoIdentityProviderClient>, userPoolId: () => string): MemberInviter {
  return {
    async invite(user) {
      const { createConsoleUser } = await cognitoUsers();
      const created = await createConsoleUser(await client(), userPoolId(), user.id);
      return { delivery: 'email', status: created.status };
    },
  };
}
