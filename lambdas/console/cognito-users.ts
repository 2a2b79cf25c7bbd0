import { AdminCreateUserCommand, AdminGetUserCommand, CognitoIdentityProviderClient, UsernameExistsException } from '@aws-sdk/client-cognito-identity-provider';
import { getUser } from '../auth/identity-repository';

// The console's users in AWS are Cognito users whose username is the service's user id, so the
// access token's `username` claim names the user the membership model knows (docs/console.md).
// The person signs in with their email; Cognito emails a temporary password and asks for a new
// one and an authenticator app (MFA is required) at first sign-in.

/** A client for the pool's admin calls (the console's AWS root makes one at the first invitation). */
export const newCognitoClient = (): CognitoIdentityProviderClient => new CognitoIdentityProviderClient({});

export interface ConsoleUserResult {
  user_id: string;
  email: string;
  user_pool_id: string;
  created: boolean;
  status: string;
}

/** Creates the Cognito user for a service user; an existing one is reported, never changed. */
export async function createConsoleUser(client: CognitoIdentityProviderClient, userPoolId: string, userId: string): Promise<ConsoleUserResult> {
  const user = await getUser(userId);
  if (!user) throw new Error(`user ${userId} does not exist (create it with admin create-user first)`);
  try {
    const out = await client.send(
      new AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: user.id,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          // The operator vouches for the address they registered; Cognito sends the invitation there.
          { Name: 'email_verified', Value: 'true' },
          { Name: 'custom:user_id', Value: user.id },
        ],
        DesiredDeliveryMediums: ['EMAIL'],
      }),
    );
    return { user_id: user.id, email: user.email, user_pool_id: userPoolId, created: true, status: out.User?.UserStatus ?? 'FORCE_CHANGE_PASSWORD' };
  } catch (error) {
    if (!(error instanceof UsernameExistsException || (error as Error).name === 'UsernameExistsException')) throw error;
    const existing = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: user.id }));
    return { user_id: user.id, email: user.email, user_pool_id: userPoolId, created: false, status: existing.UserStatus ?? 'UNKNOWN' };
  }
}
