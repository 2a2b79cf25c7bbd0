import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { useLatestRead } from '../latest-read';
import { counted, when } from '../format';
import { codeSentMessage, failureReason, plainCodeError, SAME_CARRIER_WARNING, sameCarrierWarning, type Method } from '../spam-words';
import { TableWrap } from '../table-wrap';

interface CarrierStatus {
  carrier: string;
  status: string;
  spam_detected: boolean | null;
  spam_label: string | null;
  captured_at: string | null;
  screenshot_available: boolean;
  same_carrier_warning: boolean;
  simulated: boolean;
}
interface MonitoredNumber {
  id: string;
  phone_number: string;
  verified: boolean;
  carrier: string | null;
  same_carrier_warning: boolean;
  status: string;
  created_at: string;
  carrier_statuses: CarrierStatus[];
}
interface HistoryItem {
  test_run_id: string;
  carrier: string;
  status: string;
  tested_at: string;
  spam_detected: boolean | null;
  spam_label: string | null;
  sip_response_code: string | null;
  same_carrier_warning: boolean;
  error: string | null;
  screenshot_available: boolean;
}

/** Caller-ID numbers: add, verify by code, per-carrier status, 7-day history, screenshots. */
export function SpamPage() {
  const [data, setData] = useState<{ numbers: MonitoredNumber[]; spam_monitoring_limit: number | null; total: number } | null>(null);
  const [phone, setPhone] = useState('');
  // The API's default: a call reaches any number, a text only an SMS-capable one (caller IDs are often landlines).
  const [method, setMethod] = useState<Method>('call');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  // Each message shows next to what it is about: the add form, or the number's card.
  const [notes, setNotes] = useState<Record<string, Note>>({});
  const [removed, setRemoved] = useState<string | null>(null);

  const latestRead = useLatestRead();
  const load = () => latestRead(() => api<NonNullable<typeof data>>('GET', '/spam'), setData).catch((e: Error) => setLoadError(e.message));
  useEffect(() => void load(), []);
  const act = async (where: string, what: () => Promise<string>, words: (m: string) => string = (m) => m) => {
    setNotes((n) => ({ ...n, [where]: { text: '', error: false } }));
    setRemoved(null);
    try {
      const text = await what();
      setNotes((n) => ({ ...n, [where]: { text, error: false } }));
      await load();
    } catch (e) {
      setNotes((n) => ({ ...n, [where]: { text: words(e instanceof Error ? e.message : String(e)), error: true } }));
    }
  };

  return (
    <>
      <h1>Spam monitoring</h1>
      <p>Numbers you call from are tested daily on each carrier; a spam label there means people see a warning when you call.</p>
      {loadError && <p role="alert" class="error">{loadError}</p>}
      <p role="status">{removed}</p>
      <form
        class="card inline-form"
        aria-describedby="spam-add-note"
        onSubmit={(e) => {
          e.preventDefault();
          void act('add', async () => {
            const r = await api<{ number: { id: string; phone_number: string }; verification: { sent: boolean; method: Method } }>('POST', '/spam', { phone_number: phone, verification_method: method });
            setPhone('');
            // The code's words go to the new number's card, where it is entered.
            setNotes((n) => ({ ...n, [r.number.id]: { text: codeSentMessage(r.verification.method, r.number.phone_number, r.verification.sent), error: !r.verification.sent } }));
            return `${r.number.phone_number} was added.`;
          });
        }}
      >
        <div class="field">
          <label for="spam-phone">Caller-ID number</label>
          <input id="spam-phone" type="tel" required value={phone} onInput={(e) => setPhone((e.currentTarget as HTMLInputElement).value)} placeholder="(212) 555-0143" />
        </div>
        <div class="field">
          <label for="spam-method">Send the code by</label>
          <select id="spam-method" value={method} onChange={(e) => setMethod((e.currentTarget as HTMLSelectElement).value as 'sms' | 'call')}>
            <option value="call">phone call</option>
            <option value="sms">text message</option>
          </select>
        </div>
        <button type="submit">Add number</button>
        <NoteLine id="spam-add-note" note={notes.add} />
      </form>
      {data && (
        <p class="meta">
          {counted(data.total, 'number')}{data.spam_monitoring_limit !== null ? ` of ${data.spam_monitoring_limit} in your plan` : ''}
        </p>
      )}
      {(data?.numbers ?? []).map((n) => (
        <article class="card" key={n.id} aria-label={`Number ${n.phone_number}`}>
          <h2 class="wh-url">{n.phone_number}</h2>
          <p class="meta">
            <span class={`status ${n.verified ? 's-completed' : 's-validating'}`}>{n.verified ? 'verified' : 'not verified'}</span> · {n.status}
            {n.carrier ? ` · on ${n.carrier}` : ''} · added {when(n.created_at)}
          </p>
          {n.same_carrier_warning && <p class="note warning">{sameCarrierWarning(n.carrier_statuses.filter((c) => c.same_carrier_warning).map((c) => c.carrier))}</p>}
          {!n.verified && <VerifyForm number={n} act={act} />}
          <NoteLine id={`note-${n.id}`} note={notes[n.id]} />
          {n.carrier_statuses.length > 0 && (
            <TableWrap label={`Latest result per carrier for ${n.phone_number}`}>
              <table>
                <caption class="sr-only">Latest result per carrier</caption>
                <thead>
                  <tr>
                    <th scope="col">Carrier</th>
                    <th scope="col">Result</th>
                    <th scope="col">Label shown</th>
                    <th scope="col">Tested</th>
                  </tr>
                </thead>
                <tbody>
                  {n.carrier_statuses.map((c) => (
                    <tr key={c.carrier}>
                      <td>{c.carrier}</td>
                      <td class="wrap">
                        <span class={`status ${c.spam_detected ? 's-failed' : c.spam_detected === false ? 's-completed' : ''}`}>{c.spam_detected ? 'spam label' : c.spam_detected === false ? 'clean' : c.status === 'failed' ? 'test failed' : c.status}</span>
                        {c.simulated ? ' (simulated)' : ''}
                        {c.status === 'failed' && <span class="meta cell-note"> The reason is in the history below.</span>}
                        {c.same_carrier_warning && <span class="meta cell-note"> Same carrier as the number: may be skewed.</span>}
                      </td>
                      <td>{c.spam_label ?? '—'}</td>
                      <td>{when(c.captured_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
          <div class="buttons">
            {n.verified && (
              <button type="button" class="secondary" aria-expanded={open === n.id} onClick={() => setOpen(open === n.id ? null : n.id)}>
                {open === n.id ? 'Hide history' : 'History and screenshots'}
              </button>
            )}
            <button
              type="button"
              class="danger"
              aria-label={`Stop monitoring ${n.phone_number}`}
              onClick={() =>
                confirm(`Stop monitoring ${n.phone_number}? Its history and screenshots are removed.`) &&
                void act(n.id, async () => {
                  await api('DELETE', `/spam/${n.id}`);
                  if (open === n.id) setOpen(null);
                  setRemoved(`${n.phone_number} is no longer monitored; its history was removed.`);
                  return '';
                })
              }
            >
              Stop monitoring
            </button>
          </div>
          {open === n.id && <History number={n} />}
        </article>
      ))}
    </>
  );
}

interface Note {
  text: string;
  error: boolean;
}

/** A message in place: announced (status or alert), tied to its control by id. */
function NoteLine({ id, note }: { id: string; note: Note | undefined }) {
  if (note?.error) return <p id={id} role="alert" class="error note">{note.text}</p>;
  return <p id={id} role="status" class="note">{note?.text ?? ''}</p>;
}

function VerifyForm({ number, act }: { number: MonitoredNumber; act: (where: string, w: () => Promise<string>, words?: (m: string) => string) => Promise<void> }) {
  const [code, setCode] = useState('');
  return (
    <form
      class="inline-form"
      aria-describedby={`note-${number.id}`}
      onSubmit={(e) => {
        e.preventDefault();
        void act(number.id, async () => (await api<{ message: string }>('POST', `/spam/${number.id}/verify`, { code })).message, plainCodeError);
      }}
    >
      <div class="field">
        <label for={`code-${number.id}`}>Verification code for {number.phone_number}</label>
        <input id={`code-${number.id}`} inputMode="numeric" autocomplete="one-time-code" required value={code} onInput={(e) => setCode((e.currentTarget as HTMLInputElement).value)} />
      </div>
      <button type="submit">Verify</button>
      {/* No method: the console's API sends the new code the way the number was added (text or call). */}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          void act(
            number.id,
            async () => {
              const r = await api<{ method: Method; phone_number: string }>('POST', `/spam/${number.id}/resend`, {});
              return codeSentMessage(r.method, r.phone_number, true);
            },
            plainCodeError,
          )
        }
      >
        Send a new code
      </button>
    </form>
  );
}

function History({ number }: { number: MonitoredNumber }) {
  const [items, setItems] = useState<HistoryItem[] | null>(null);
  const [image, setImage] = useState<{ carrier: string; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ results: HistoryItem[] }>('GET', `/spam/${number.id}/history`).then((r) => setItems(r.results), (e: Error) => setError(e.message));
  }, [number.id]);
  const show = (carrier: string) =>
    api<{ data_url: string }>('GET', `/spam/${number.id}/screenshot?carrier=${encodeURIComponent(carrier)}`).then(
      (r) => setImage({ carrier, url: r.data_url }),
      (e: Error) => setError(e.message),
    );
  return (
    <div>
      {error && <p role="alert" class="error">{error}</p>}
      <h3>Last 7 days</h3>
      {items && items.length === 0 && <p>No tests yet: numbers are tested once a day after verification.</p>}
      {items && items.length > 0 && (
        <TableWrap label={`Last 7 days of tests for ${number.phone_number}`}>
          <table>
            <thead>
              <tr>
                <th scope="col">Tested</th>
                <th scope="col">Carrier</th>
                <th scope="col">Result</th>
                <th scope="col">Label or reason</th>
                <th scope="col">
                  <span class="sr-only">Screenshot</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((h) => (
                <tr key={h.test_run_id + h.carrier}>
                  <td>{when(h.tested_at)}</td>
                  <td>{h.carrier}</td>
                  <td>{h.spam_detected ? 'spam label' : h.spam_detected === false ? 'clean' : h.status === 'failed' ? 'test failed' : h.status}</td>
                  <td class="wrap">
                    {h.status === 'failed' ? failureReason(h.error, h.sip_response_code) : (h.spam_label ?? '—')}
                    {h.same_carrier_warning && <span class="meta cell-note"> {SAME_CARRIER_WARNING}</span>}
                  </td>
                  <td>
                    {h.screenshot_available && (
                      <button type="button" class="link" onClick={() => void show(h.carrier)}>
                        View {h.carrier} screenshot
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      {image && (
        <figure class="screenshot">
          <img src={image.url} alt={`Incoming call screen on ${image.carrier} for ${number.phone_number}`} />
          <figcaption>Latest {image.carrier} screenshot</figcaption>
        </figure>
      )}
    </div>
  );
}
