import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { when } from '../format';
import type { ApiKey, Me, Member } from '../types';
import { InviteMember } from './invite-member';
import { useLatestRead } from '../latest-read';

/** As the service's rule (lambdas/admin/key-name.ts). */
const KEY_NAME_MAX = 80;
const EXPIRY_IN_PAST = 'Pick an expiry date and time in the future, or leave it empty for a key that never expires.';

/** Owners only: API keys (minted here, shown once) and the organization's members. */
export function DeveloperPage({ me }: { me: Me }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [members, setMembers] = useState<Member[] | null>(null);
  const [expires, setExpires] = useState('');
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [minted, setMinted] = useState<{ id: string; key: string; display_prefix: string; name: string | null } | null>(null);
  const [copied, setCopied] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mintError, setMintError] = useState<string | null>(null);

  const latestRead = useLatestRead();
  const load = async () => {
    try {
      await latestRead(
        () => Promise.all([api<{ data: ApiKey[] }>('GET', '/keys'), api<{ data: Member[] }>('GET', '/members')]),
        ([k, m]) => (setKeys(k.data), setMembers(m.data)),
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  useEffect(() => void load(), []);

  const run = async (what: () => Promise<void>) => {
    setError(null);
    setMessage(null);
    try {
      await what();
      await load();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const mint = async (e: Event) => {
    e.preventDefault();
    setMintError(null);
    setMessage(null);
    const at = expires ? new Date(expires) : null;
    if (at && !(at.getTime() > Date.now())) {
      setMintError(EXPIRY_IN_PAST);
      return;
    }
    setNameError(null);
    if ([...name.trim()].length > KEY_NAME_MAX) {
      setNameError(`Use at most ${KEY_NAME_MAX} characters for the name.`);
      return;
    }
    try {
      const body = { ...(at ? { expires_at: at.toISOString() } : {}), ...(name.trim() ? { name: name.trim() } : {}) };
      setMinted(await api<{ id: string; key: string; display_prefix: string; name: string | null }>('POST', '/keys', body));
      setCopied(false);
      setName('');
      await load();
    } catch (err) {
      // The server's check (the clock moved on while the form was open) in the same words.
      const text = err instanceof Error ? err.message : String(err);
      if (/key name/i.test(text)) setNameError(text);
      else setMintError(/expires_at must be in the future/.test(text) ? EXPIRY_IN_PAST : text);
    }
  };
  const copy = async () => {
    if (!minted) return;
    try {
      await navigator.clipboard.writeText(minted.key);
      setCopied(true);
    } catch {
      (document.getElementById('minted-key') as HTMLInputElement | null)?.select();
      setMessage('Select the key and copy it (Ctrl+C / ⌘C).');
    }
  };

  return (
    <>
      <h1>Developer</h1>
      {error && <p role="alert" class="error">{error}</p>}
      {message && <p role="status">{message}</p>}
      <section class="card" aria-labelledby="mint-h">
        <h2 id="mint-h">Create an API key</h2>
        <form onSubmit={(e) => void mint(e)} class="inline-form" noValidate>
          <div class="field">
            <label for="key-name">Name (optional)</label>
            <input
              id="key-name"
              type="text"
              value={name}
              maxLength={KEY_NAME_MAX}
              placeholder="e.g. CRM sync"
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? 'key-name-error' : undefined}
              onInput={(e) => {
                setName((e.currentTarget as HTMLInputElement).value);
                setNameError(null);
              }}
            />
          </div>
          <div class="field">
            <label for="expires">Expires (optional)</label>
            <input
              id="expires"
              type="datetime-local"
              value={expires}
              aria-invalid={mintError ? true : undefined}
              aria-describedby={mintError ? 'expires-error' : undefined}
              onInput={(e) => {
                setExpires((e.currentTarget as HTMLInputElement).value);
                setMintError(null);
              }}
            />
          </div>
          <button type="submit">Create key</button>
          {nameError && (
            <p id="key-name-error" role="alert" class="error note">
              {nameError}
            </p>
          )}
          {mintError && (
            <p id="expires-error" role="alert" class="error note">
              {mintError}
            </p>
          )}
        </form>
        {minted && (
          <div class="minted" role="status">
            <p>
              <strong>Copy {minted.name ? `the key “${minted.name}”` : 'this key'} now: it is shown only once.</strong>
            </p>
            <label for="minted-key">New API key</label>
            <div class="copy-row">
              <input id="minted-key" readOnly value={minted.key} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
              <button type="button" onClick={() => void copy()}>
                {copied ? 'Copied' : 'Copy key'}
              </button>
            </div>
            <button type="button" class="link" onClick={() => setMinted(null)}>
              I have stored it; hide the key
            </button>
          </div>
        )}
      </section>

      <section aria-labelledby="keys-h">
        <h2 id="keys-h">API keys</h2>
        <div class="table-wrap">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Created by</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(keys ?? []).map((k) => (
                <tr key={k.id}>
                  {/* Name and prefix in one column: the table keeps fitting a 1280 px screen with its Revoke buttons. */}
                  <td data-label="Key" class="wrap">
                    {k.name && (
                      <>
                        <strong>{k.name}</strong>
                        <br />
                      </>
                    )}
                    <code>{k.display_prefix}…</code>
                  </td>
                  <td data-label="Created by" class="wrap">{k.created_by ?? k.created_by_user_id}</td>
                  <td data-label="Created">{when(k.created_at)}</td>
                  <td data-label="Expires">{k.expires_at ? when(k.expires_at) : 'never'}</td>
                  <td data-label="Last used">{when(k.last_used_at)}</td>
                  <td data-label="State" class="wrap">{k.revoked_at ? `revoked ${when(k.revoked_at)}` : k.expires_at && Date.parse(k.expires_at) < Date.now() ? 'expired' : 'active'}</td>
                  <td>
                    {!k.revoked_at && (
                      <button type="button" class="danger" aria-label={`Revoke key ${k.name ? `${k.name} (${k.display_prefix})` : k.display_prefix}`} onClick={() => confirm(`Revoke key ${k.name ? `“${k.name}” ` : ''}${k.display_prefix}…? Programs using it stop working at once.`) && void run(() => api('DELETE', `/keys/${k.id}`).then(() => {
                        // The just-minted key's panel would otherwise go on offering a dead key to copy.
                        setMinted((shown) => (shown?.id === k.id ? null : shown));
                        setMessage(`Key ${k.display_prefix}… revoked.`);
                      }))}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="members-h">
        <h2 id="members-h">Members</h2>
        <p>Removing a member revokes every API key they created for this organization.</p>
        <InviteMember onInvited={() => void load()} />
        <div class="table-wrap">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Since</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(members ?? []).map((m) => (
                <tr key={m.user_id}>
                  <td data-label="Email" class="wrap">{m.email ?? m.user_id}</td>
                  <td data-label="Role">{m.role}</td>
                  <td data-label="Since">{when(m.created_at)}</td>
                  <td>
                    {m.user_id !== me.user.id && (
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Remove ${m.email ?? m.user_id}`}
                        onClick={() =>
                          confirm(`Remove ${m.email ?? m.user_id} from ${me.organization.name}? Their API keys are revoked.`) &&
                          void run(async () => {
                            const r = await api<{ revoked_keys: number }>('DELETE', `/members/${m.user_id}`);
                            setMessage(`${m.email ?? m.user_id} removed; ${r.revoked_keys} key(s) revoked.`);
                          })
                        }
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
