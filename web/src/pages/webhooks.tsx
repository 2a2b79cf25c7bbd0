import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { fieldRefusal } from '../api-words';
import { when } from '../format';
import { superseded, useLatestRead } from '../latest-read';

interface Webhook {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  is_active: boolean;
  verified_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  consecutive_failures: number;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

interface Delivery {
  id: string;
  event_type: string;
  state: string;
  attempt_count: number;
  attempts: { attempt: number; attempted_at: string; status_code: number | null; error?: string | null }[];
  next_attempt_at: string | null;
  exhausted_reason: string | null;
  redelivered_at: string | null;
  created_at: string;
}

/** Owners: register endpoints (pinged at once, secret shown once), change URL (pinged again), edit events, disable/enable, deliveries. */
export function WebhooksPage() {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [types, setTypes] = useState<string[]>([]);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [registerError, setRegisterError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Ticks not yet reflected by a reload: the next tick builds on these, not on the stale list.
  const [pendingEvents, setPendingEvents] = useState<Record<string, string[]>>({});

  const latestRead = useLatestRead();
  const load = async () => {
    await latestRead(
      () => api<{ data: Webhook[]; event_types: string[]; default_events: string[] }>('GET', '/webhooks'),
      (r) => {
        setHooks(r.data);
        setTypes(r.event_types);
        setEvents((e) => (e.length ? e : r.default_events));
      },
    );
  };
  useEffect(() => {
    load().catch((e: Error) => setError(e.message));
  }, []);

  const register = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setRegisterError(null);
    setCreated(null);
    try {
      const r = await api<{ webhook: Webhook; secret: string }>('POST', '/webhooks', { url, description: description || null, events });
      setCreated({ url: r.webhook.url, secret: r.secret });
      setUrl('');
      setDescription('');
      await load();
    } catch (err) {
      // Beside the URL it is about; a URL the organization has already is said in words (the API's 409 names the endpoint's id).
      const duplicate = err instanceof ApiError && err.status === 409;
      setRegisterError(`Not registered: ${duplicate ? 'this URL is registered already; change or delete that endpoint below instead' : fieldRefusal(err instanceof Error ? err.message : String(err))}`);
    } finally {
      setBusy(false);
    }
  };
  const update = async (id: string, patch: Record<string, unknown>) => {
    setError(null);
    try {
      await api('POST', `/webhooks/${id}`, patch);
      await load();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  const remove = async (h: Webhook) => {
    setError(null);
    setNotice(null);
    try {
      await api('DELETE', `/webhooks/${h.id}`);
      if (open === h.id) setOpen(null);
      setNotice(`${h.url} deleted.`);
      await load();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

  return (
    <>
      <h1>Webhooks</h1>
      {error && <p role="alert" class="error">{error}</p>}
      {notice && <p role="status">{notice}</p>}
      <form class="card" onSubmit={(e) => void register(e)} aria-labelledby="wh-new">
        <h2 id="wh-new">Register an endpoint</h2>
        <p>The service sends a signed <code>webhook.ping</code> at once; the endpoint must answer 2xx.</p>
        <div class="field">
          <label for="wh-url">Endpoint URL</label>
          <input
            id="wh-url"
            type="url"
            required
            value={url}
            aria-invalid={registerError ? true : undefined}
            aria-describedby={registerError ? 'wh-url-error' : undefined}
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
            placeholder="https://example.com/hooks/phone-validation"
          />
          {registerError && (
            <p id="wh-url-error" role="alert" class="error note">
              {registerError}
            </p>
          )}
        </div>
        <div class="field">
          <label for="wh-desc">Description (optional)</label>
          <input id="wh-desc" value={description} onInput={(e) => setDescription((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <EventChecks idPrefix="new" types={types} selected={events} onChange={setEvents} />
        {/* Not before the list has loaded: the event types (and the defaults ticked) come with it, and
            a click before would send no events, which the API refuses. */}
        <button type="submit" disabled={busy || hooks === null}>
          {busy ? 'Pinging…' : 'Register endpoint'}
        </button>
        {created && (
          <div class="minted" role="status">
            <p>
              <strong>Ping answered: {created.url} is registered.</strong> Copy its signing secret now: it is shown only once.
            </p>
            <label for="wh-secret">Signing secret</label>
            <div class="copy-row">
              <input id="wh-secret" readOnly value={created.secret} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
              <button type="button" onClick={() => void navigator.clipboard.writeText(created.secret).catch(() => undefined)}>
                Copy secret
              </button>
            </div>
          </div>
        )}
      </form>

      <section aria-labelledby="wh-list">
        <h2 id="wh-list">Endpoints</h2>
        {hooks && hooks.length === 0 && <p>No endpoints yet.</p>}
        {(hooks ?? []).map((h) => (
          <article class="card" key={h.id} aria-label={`Endpoint ${h.url}`}>
            <h3 class="wh-url">{h.url}</h3>
            <p class="meta">
              <span class={`status ${h.is_active ? 's-completed' : 's-failed'}`}>{h.is_active ? 'active' : 'disabled'}</span> · last success {when(h.last_success_at)} · last failure {when(h.last_failure_at)} · {h.consecutive_failures} failures in a row
              {h.description ? ` · ${h.description}` : ''}
            </p>
            <UrlEditor hook={h} onSaved={load} />
            <EventChecks
              idPrefix={h.id}
              types={types}
              selected={pendingEvents[h.id] ?? h.events}
              onChange={(ev) => {
                setPendingEvents((p) => ({ ...p, [h.id]: ev }));
                void update(h.id, { events: ev }).then(() =>
                  setPendingEvents((p) => {
                    if (p[h.id] !== ev) return p;
                    const { [h.id]: _done, ...rest } = p;
                    return rest;
                  }),
                );
              }}
            />
            <div class="buttons">
              <button type="button" class="secondary" onClick={() => void update(h.id, { is_active: !h.is_active })}>
                {h.is_active ? 'Disable' : 'Re-enable'}
              </button>
              <button type="button" class="secondary" aria-expanded={open === h.id} onClick={() => setOpen(open === h.id ? null : h.id)}>
                {open === h.id ? 'Hide deliveries' : 'Show deliveries'}
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Delete endpoint ${h.url}`}
                onClick={() =>
                  confirm(`Delete the endpoint ${h.url}? It receives no more events; deliveries still pending are abandoned.`) &&
                  void remove(h)
                }
              >
                Delete
              </button>
            </div>
            {/* Keyed by updated_at: a change (a new URL pinged, re-enabled) shows the log afresh. */}
            {open === h.id && <Deliveries key={h.updated_at} id={h.id} />}
          </article>
        ))}
      </section>
    </>
  );
}

/**
 * Changing the URL is the API's update: the same URL-safety check, then a signed webhook.ping to the
 * new URL with the endpoint's secret; only a 2xx answer saves it, otherwise nothing changes.
 */
function UrlEditor({ hook, onSaved }: { hook: Webhook; onSaved: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(hook.url);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const inputId = `url-${hook.id}`;
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const r = await api<{ webhook: Webhook; ping: { status_code: number } | null }>('POST', `/webhooks/${hook.id}`, { url: value });
      setOutcome({ ok: true, text: r.ping ? `Ping answered ${r.ping.status_code}: events now go to ${r.webhook.url}.` : 'The URL is unchanged.' });
      setEditing(false);
      await onSaved();
    } catch (err) {
      setOutcome({ ok: false, text: `URL not changed: ${fieldRefusal(err instanceof Error ? err.message : String(err))}` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} class={outcome.ok ? undefined : 'error'}>
          {outcome.text}
        </p>
      )}
      {editing ? (
        <form class="url-edit" onSubmit={(e) => void save(e)}>
          <label for={inputId}>New URL for {hook.url}</label>
          <div class="copy-row">
            <input id={inputId} type="url" required value={value} onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} />
            <button type="submit" disabled={busy}>
              {busy ? 'Pinging…' : 'Save URL'}
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => (setEditing(false), setValue(hook.url))}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div class="buttons">
          <button type="button" class="secondary" aria-label={`Change URL of ${hook.url}`} onClick={() => (setEditing(true), setValue(hook.url), setOutcome(null))}>
            Change URL
          </button>
        </div>
      )}
    </>
  );
}

function EventChecks({ idPrefix, types, selected, onChange }: { idPrefix: string; types: string[]; selected: string[]; onChange: (e: string[]) => void }) {
  return (
    <fieldset>
      <legend>Events</legend>
      <div class="checks">
        {types.map((t) => (
          <label key={t} class="check" for={`${idPrefix}-${t}`}>
            <input
              id={`${idPrefix}-${t}`}
              type="checkbox"
              checked={selected.includes(t)}
              onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked ? [...selected, t] : selected.filter((x) => x !== t))}
            />
            {t}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function Deliveries({ id }: { id: string }) {
  const [rows, setRows] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Per delivery: a send-again request under way (the button is disabled: a double click sends one), then its outcome.
  const [sending, setSending] = useState<Record<string, boolean>>({});
  const [outcome, setOutcome] = useState<Record<string, string>>({});
  const [watching, setWatching] = useState(0);
  const latestRead = useLatestRead();
  const load = () => latestRead(() => api<{ data: Delivery[] }>('GET', `/webhooks/${id}/deliveries`).then((r) => r.data), setRows);
  useEffect(() => {
    load().catch((e: Error) => setError(e.message));
  }, [id]);
  // While a delivery sent again is pending, the log is read again every 2 s (at most a minute).
  useEffect(() => {
    if (!watching) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries++;
      load().then(
        (data) => {
          if (data === superseded) return;
          if (tries >= 30 || !data.some((d) => d.state === 'pending' && d.redelivered_at)) {
            clearInterval(timer);
            setWatching(0);
          }
        },
        () => undefined,
      );
    }, 2000);
    return () => clearInterval(timer);
  }, [watching, id]);

  const sendAgain = async (d: Delivery) => {
    setSending((s) => ({ ...s, [d.id]: true }));
    setOutcome((o) => ({ ...o, [d.id]: '' }));
    try {
      await api('POST', `/webhooks/${id}/deliveries/${d.id}/redeliver`);
      await load();
      setWatching((w) => w + 1);
    } catch (e) {
      setOutcome((o) => ({ ...o, [d.id]: (e as Error).message }));
    } finally {
      setSending((s) => ({ ...s, [d.id]: false }));
    }
  };

  if (error) return <p role="alert" class="error">{error}</p>;
  if (!rows) return <p>Loading…</p>;
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">Deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Status codes</th>
            <th scope="col">Next retry</th>
            <th scope="col">Created</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id} data-delivery={d.id}>
              <td>{d.event_type}</td>
              <td>
                {d.state}
                {d.exhausted_reason ? ` (${d.exhausted_reason})` : ''}
                {d.redelivered_at && (
                  <>
                    <br />
                    <span class="hint">sent again {when(d.redelivered_at)}</span>
                  </>
                )}
              </td>
              <td>{d.attempt_count}</td>
              <td>{d.attempts.map((a) => a.status_code ?? a.error ?? '—').join(', ')}</td>
              <td>{d.state === 'pending' ? when(d.next_attempt_at) : '—'}</td>
              <td>{when(d.created_at)}</td>
              <td>
                {d.state === 'exhausted' && (
                  <button type="button" disabled={sending[d.id]} aria-label={`Send again: the ${d.event_type} delivery of ${when(d.created_at)}`} onClick={() => void sendAgain(d)}>
                    Send again
                  </button>
                )}
                {/* The request's refusal, or the attempt under way; its outcome shows in the State column. */}
                <span role="status" class="hint">
                  {outcome[d.id] || (sending[d.id] || (d.state === 'pending' && d.redelivered_at) ? 'Sending again…' : '')}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
