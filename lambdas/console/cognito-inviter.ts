import type { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { createConsoleUser } from './cognito-users';
import type { MemberInviter } from './member-inviter';

/**
 * Invitations in AWS: Cognito's AdminCreateUser for the new service user (username = its id, the
 * email verified), and Cognito emails the temporary password; the person sets their own password
 * and an authenticator app at first sign-in (cognito-users.ts). The owner is told it was emailed.
 */
export function cognitoMemberInviter(client: () => CognitoIdentityProviderClient, userPoolId: () => string): MemberInviter {
  return {
    async invite(user) {
      const created = await createConsoleUser(client(), userPoolId(), user.id);
      return { delivery: 'email', status: created.status };
    },
  };
}
