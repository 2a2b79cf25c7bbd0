import { useState } from 'preact/hooks';
import { api } from '../api';
import type { Member } from '../types';

interface InviteAnswer {
  member: Member;
  invitation: { delivery: 'email'; status: string } | { delivery: 'shown'; sign_in_url: string; temporary_password: string };
}

/**
 * Owners: invite a person by email as a member. In AWS, Cognito emails them a temporary password;
 * the local service sends no mail, so the sign-in address and password are shown here once.
 */
export function InviteMember({ onInvited }: { onInvited: () => void }) {
  const [inviteEmail, setInviteEmail] = useState('');
  const [inviting, setInviting] = useState(false);
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [invited, setInvited] = useState<InviteAnswer | null>(null);

  const invite = async (e: Event) => {
    e.preventDefault();
    setInviteError(null);
    setInvited(null);
    if (!inviteEmail.trim()) {
      setInviteError('Enter the email address of the person to invite, such as name@example.com');
      return;
    }
    setInviting(true);
    try {
      setInvited(await api<InviteAnswer>('POST', '/members', { email: inviteEmail.trim() }));
      setInviteEmail('');
      onInvited();
    } catch (err) {
      setInviteError(err instanceof Error ? err.message : String(err));
    } finally {
      setInviting(false);
    }
  };
  return (
    <>
      <form onSubmit={(e) => void invite(e)} class="inline-form card" noValidate aria-labelledby="invite-h">
        <h3 id="invite-h">Invite a member</h3>
        <div class="field">
          <label for="invite-email">Email address</label>
          <input
            id="invite-email"
            type="email"
            autocomplete="off"
            value={inviteEmail}
            maxLength={254}
            aria-invalid={inviteError ? true : undefined}
            aria-describedby={inviteError ? 'invite-error' : undefined}
            onInput={(e) => {
              setInviteEmail((e.currentTarget as HTMLInputElement).value);
              setInviteError(null);
            }}
          />
        </div>
        <button type="submit" disabled={inviting}>
          {inviting ? 'Inviting…' : 'Invite'}
        </button>
        {inviteError && (
          <p id="invite-error" role="alert" class="error note">
            {inviteError}
          </p>
        )}
      </form>
      {invited && (
        <div class="minted" role="status">
          {invited.invitation.delivery === 'email' ? (
            <p>
              <strong>{invited.member.email} is invited as a member.</strong> They get an email with a temporary password, and choose their own at first sign-in.
            </p>
          ) : (
            <>
              <p>
                <strong>{invited.member.email} is invited as a member.</strong> No email is sent by this local service: give them this address and password (shown only now; also in the service's log).
              </p>
              <div class="field">
                <label for="invite-url">Sign-in address</label>
                <input id="invite-url" readOnly value={invited.invitation.sign_in_url} />
              </div>
              <div class="field">
                <label for="invite-password">Password</label>
                <input id="invite-password" readOnly value={invited.invitation.temporary_password} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
              </div>
            </>
          )}
          <button type="button" class="link" onClick={() => setInvited(null)}>
            Done; hide this
          </button>
        </div>
      )}
    </>
  );
}
