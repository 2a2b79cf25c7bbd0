import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { AdminCreateUserCommand, AdminGetUserCommand, CognitoIdentityProviderClient, InvalidParameterException, UsernameExistsException } from '@aws-sdk/client-cognito-identity-provider';
import { useTestService } from '../../support/runtime';
import { createUser } from '../../../lambdas/admin/admin';
import { createConsoleUser } from '../../../lambdas/console/cognito-users';
import { cognitoMemberInviter } from '../../../lambdas/console/cognito-inviter';
import { ADMIN_COMMANDS, AdminUsageError } from '../../../bin/admin-commands';

// `npm run admin -- console-user`: the Cognito user for a service user, username = the user id.
// The user comes from the real (embedded) table; Cognito is mocked, the one fault we cannot cause.

useTestService();
const cognito = mockClient(CognitoIdentityProviderClient);
const POOL = 'us-east-1_Abc123XyZ';

beforeEach(() => cognito.reset());
// The mock replaces the client class's send for the whole process: give it back for the files after this one.
afterAll(() => cognito.restore());
afterEach(() => delete process.env.CONSOLE_USER_POOL_ID);

describe('console users in Cognito', () => {
  it('creates the user with the service user id as username, the email verified, and an emailed invitation', async () => {
    const user = await createUser(`cognito-${Date.now()}@example.com`);
    cognito.on(AdminCreateUserCommand).resolves({ User: { Username: user.id, UserStatus: 'FORCE_CHANGE_PASSWORD' } });
    const result = await createConsoleUser(new CognitoIdentityProviderClient({ region: 'us-east-1' }), POOL, user.id);
    expect(result).toEqual({ user_id: user.id, email: user.email, user_pool_id: POOL, created: true, status: 'FORCE_CHANGE_PASSWORD' });
    const calls = cognito.commandCalls(AdminCreateUserCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      UserPoolId: POOL,
      Username: user.id,
      UserAttributes: [
        { Name: 'email', Value: user.email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'custom:user_id', Value: user.id },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    });
  });

  it('reports an existing user without changing it', async () => {
    const user = await createUser(`cognito-again-${Date.now()}@example.com`);
    cognito.on(AdminCreateUserCommand).rejects(new UsernameExistsException({ message: 'User account already exists', $metadata: {} }));
    cognito.on(AdminGetUserCommand).resolves({ Username: user.id, UserStatus: 'CONFIRMED' });
    const result = await createConsoleUser(new CognitoIdentityProviderClient({ region: 'us-east-1' }), POOL, user.id);
    expect(result).toMatchObject({ created: false, status: 'CONFIRMED', user_id: user.id });
    expect(cognito.commandCalls(AdminGetUserCommand)[0]!.args[0].input).toEqual({ UserPoolId: POOL, Username: user.id });
  });

  it('refuses an unknown user before calling Cognito, and passes other Cognito errors on', async () => {
    await expect(createConsoleUser(new CognitoIdentityProviderClient({ region: 'us-east-1' }), POOL, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/does not exist/);
    expect(cognito.calls()).toHaveLength(0);
    const user = await createUser(`cognito-bad-${Date.now()}@example.com`);
    cognito.on(AdminCreateUserCommand).rejects(new InvalidParameterException({ message: 'Invalid email address format.', $metadata: {} }));
    await expect(createConsoleUser(new CognitoIdentityProviderClient({ region: 'us-east-1' }), POOL, user.id)).rejects.toThrow('Invalid email address format.');
    expect(cognito.commandCalls(AdminGetUserCommand)).toHaveLength(0);
  });

  it('an owner\'s invitation in AWS creates the member\'s Cognito user the same way, and says it was emailed', async () => {
    const user = await createUser(`invited-${Date.now()}@example.com`);
    cognito.on(AdminCreateUserCommand).resolves({ User: { Username: user.id, UserStatus: 'FORCE_CHANGE_PASSWORD' } });
    const inviter = cognitoMemberInviter(() => new CognitoIdentityProviderClient({ region: 'us-east-1' }), () => POOL);
    expect(await inviter.invite({ id: user.id, email: user.email })).toEqual({ delivery: 'email', status: 'FORCE_CHANGE_PASSWORD' });
    expect(cognito.commandCalls(AdminCreateUserCommand)[0]!.args[0].input).toMatchObject({ UserPoolId: POOL, Username: user.id, DesiredDeliveryMediums: ['EMAIL'] });
  });

  it('the admin command needs a pool (--user-pool, or --stack for its output) and a user', async () => {
    const command = ADMIN_COMMANDS['console-user']!;
    const user = await createUser(`cognito-cli-${Date.now()}@example.com`);
    await expect(command.run({ user: user.id })).rejects.toBeInstanceOf(AdminUsageError);
    await expect(command.run({ 'user-pool': POOL })).rejects.toBeInstanceOf(AdminUsageError);
    cognito.on(AdminCreateUserCommand).resolves({ User: { Username: user.id, UserStatus: 'FORCE_CHANGE_PASSWORD' } });
    process.env.AWS_REGION ??= 'us-east-1';
    process.env.CONSOLE_USER_POOL_ID = POOL;
    expect(await command.run({ user: user.id })).toMatchObject({ created: true, user_pool_id: POOL });
    expect(await command.run({ user: user.id, 'user-pool': 'us-east-1_Other' })).toMatchObject({ user_pool_id: 'us-east-1_Other' });
    expect(cognito.commandCalls(AdminCreateUserCommand).map((c) => c.args[0].input.UserPoolId)).toEqual([POOL, 'us-east-1_Other']);
  });
});
