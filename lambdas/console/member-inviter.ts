/**
 * How a person invited to an organization gets to sign in to the console: in AWS a Cognito user
 * whose username is the service user id, emailed a temporary password by Cognito
 * (cognito-inviter.ts); locally a login of the embedded provider, whose password is shown to the
 * inviting owner and logged, since nothing sends mail there (local/console-invites.ts).
 */
export interface MemberInviter {
  invite(user: { id: string; email: string }): Promise<Invitation>;
}

/** What the inviting owner is told. */
export type Invitation =
  | { delivery: 'email'; status: string }
  | { delivery: 'shown'; sign_in_url: string; temporary_password: string };

export interface MemberInvitePorts {
  readonly memberInviter: MemberInviter;
}
