import { useEffect, useRef, useState } from 'preact/hooks';
import { ANSWER_INTENTS, TIERS } from '../../../lambdas/classification/vocabulary';
import { api, ApiError, download } from '../api';
import { draftChanges } from '../draft-changes';
import { TierChart } from '../chart';
import { counted, label, num, sourceWords, when } from '../format';
import { linkClick, navigate } from '../router';
import type { Draft, Progress, SentFile, Upload } from '../types';
import { ImportFormatCard } from './import-format';
import { TableWrap } from '../table-wrap';

type Loaded = { draft: Draft } | { upload: Upload; progress?: Progress | null; sent?: SentFile | null };
/** After a 409 on confirm: what changed in the draft meanwhile, or that it was confirmed elsewhere. */
type Notice = { changes: string[] } | { elsewhere: true };
type OnChange = (s: Loaded, notice?: Notice) => void;

/** A draft being confirmed (by another tab) is followed until it is its upload, then the upload until it ends. */
const finished = (s: Loaded | null) => s !== null && ('draft' in s ? s.draft.status !== 'confirming' : ['completed', 'failed', 'cancelled'].includes(s.upload.status));
const confirmedElsewhere = (s: Loaded) => 'upload' in s || s.draft.status === 'confirming' || s.draft.status === 'confirmed';
/** Between looks while processing, and the longest wait between retries after failures. */
const POLL_MS = 1000;
const MAX_RETRY_MS = 15_000;
/** A failure worth retrying: no answer (a dropped connection, a restart) or the server's own trouble. */
const transient = (e: unknown) => !(e instanceof ApiError) || e.status === 0 || e.status >= 500;

/** One web upload through its steps, or an upload (web or API) and its results. */
export function UploadPage({ id }: { id: string }) {
  const [state, setState] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [reconnecting, setReconnecting] = useState(false);
  // Survives DraftSteps' remount when a validation changes the draft (FocusAfterValidate).
  const focusAfterValidate = useRef<FocusAfterValidate>(false);
  const polling = !finished(state);
  // Looks until the upload is finished; a failed look is retried with backoff (1 s, 2 s, 4 s … 15 s)
  // under a visible notice, and the page keeps what it last showed.
  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      try {
        const now = await api<Loaded>('GET', `/uploads/${id}`);
        if (stopped) return;
        failures = 0;
        setReconnecting(false);
        setState(now);
        // The confirmation elsewhere was refused (no credits, say): the draft awaits confirmation again.
        if (!confirmedElsewhere(now)) setNotice((n) => (n && 'elsewhere' in n ? { changes: ['The confirmation elsewhere did not go through: the upload is awaiting confirmation again.'] } : n));
        if (finished(now)) return;
        timer = setTimeout(() => void look(), POLL_MS);
      } catch (e) {
        if (stopped) return;
        if (e instanceof ApiError && e.status === 404) return setMissing(true);
        if (!transient(e)) return setError((e as Error).message);
        failures++;
        setReconnecting(true);
        timer = setTimeout(() => void look(), Math.min(MAX_RETRY_MS, POLL_MS * 2 ** (failures - 1)));
      }
    };
    timer = setTimeout(() => void look(), state ? POLL_MS : 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id, polling]);
  const change: OnChange = (s, note) => {
    setState(s);
    setNotice(note ?? null);
  };

  const banner = reconnecting && (
    <p role="status" class="note reconnecting">
      Reconnecting… the connection to the service was lost; trying again. What is shown may be out of date.
    </p>
  );
  if (missing)
    return (
      <>
        <h1>Upload not found</h1>
        <p>No upload or draft of your organization has this address. A discarded draft is removed for good; its file was never charged.</p>
        <p>
          <a href="/uploads" onClick={(e) => linkClick(e, '/uploads')}>
            Back to uploads
          </a>
        </p>
      </>
    );
  if (error) return <p role="alert" class="error">{error}</p>;
  if (!state) return banner || <p>Loading…</p>;
  const elsewhere = notice && 'elsewhere' in notice && (
    <div role="status" class="card">
      <p>
        This upload was confirmed elsewhere (another tab or a colleague) and charged there, once; your Confirm charged nothing.{' '}
        {'draft' in state ? 'It is being confirmed; this page follows it to its results.' : 'Its results are below.'}
      </p>
    </div>
  );
  const changed = notice && 'changes' in notice && (
    <div role="alert" class="card failed">
      <p>This upload was changed elsewhere (another tab or a colleague), so nothing was charged. It has been reloaded:</p>
      <ul>
        {notice.changes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
      <p>Review it and confirm again.</p>
    </div>
  );
  // Read again with other columns (import format), or changed elsewhere, the choices start over from the draft.
  if ('draft' in state)
    return (
      <>
        {banner}
        {changed}
        {elsewhere}
        <DraftSteps key={`${state.draft.header.join('\u0001')}|${JSON.stringify(state.draft.mapping)}|${state.draft.status}`} draft={state.draft} onChange={change} focusAfterValidate={focusAfterValidate} />
      </>
    );
  return (
    <>
      {banner}
      {elsewhere}
      <Results upload={state.upload} progress={state.progress ?? null} sent={state.sent ?? null} />
    </>
  );
}

/** How often the page reads the draft while the server validates it. */
const VALIDATION_POLL_MS = 250;

/** Server-side validation's progress: rows checked of the file's rows (a determinate bar). */
/** The validation's bar: running, done, or stopped by a refusal (whose reason the page shows below it). */
function ValidationProgress({ done, total, state }: { done: number; total: number; state: 'running' | 'done' | 'stopped' }) {
  const max = Math.max(1, total);
  const text = {
    running: `${num(done)} of ${num(total)} rows checked…`,
    done: `All ${num(total)} rows checked.`,
    stopped: done === 0 ? 'Stopped before any row was checked; the reason is below.' : done >= total ? `All ${num(total)} rows checked; why the list was refused is below.` : `Stopped after ${num(done)} of ${num(total)} rows; the reason is below.`,
  }[state];
  return (
    <div class="progress">
      <label for="validation-progress">{{ running: 'Validating', done: 'Validated', stopped: 'Validation stopped' }[state]}</label>
      <progress id="validation-progress" max={max} value={Math.min(done, max)}>
        {Math.round((Math.min(done, max) / max) * 100)}%
      </progress>
      <span role="status">{text}</span>
    </div>
  );
}

const STEPS = ['Choose file', 'Map columns', 'Validate', 'Confirm', 'Results'];
function Steps({ current }: { current: number }) {
  return (
    <ol class="steps" aria-label="Upload steps">
      {STEPS.map((s, i) => (
        <li key={s} class={i < current ? 'done' : i === current ? 'current' : ''} aria-current={i === current ? 'step' : undefined}>
          {s}
        </li>
      ))}
    </ol>
  );
}

/**
 * Validate is disabled while it runs, and a disabled button lets go of the focus. Where the focus
 * was when it was pressed (false: no validation of this page's to follow up), so that once it ends
 * the focus goes to what it gave: its result's heading, or the button beside its error; unless the
 * user has moved the focus elsewhere meanwhile.
 */
type FocusAfterValidate = Element | null | false;

function DraftSteps({ draft, onChange, focusAfterValidate }: { draft: Draft; onChange: OnChange; focusAfterValidate: { current: FocusAfterValidate } }) {
  const initial = draft.mapping ?? {
    phoneColumns: draft.suggested.phone_columns,
    fullNameColumn: draft.suggested.full_name_column,
    firstNameColumn: draft.suggested.first_name_column,
    lastNameColumn: draft.suggested.last_name_column,
  };
  const [phones, setPhones] = useState<string[]>(initial.phoneColumns);
  const [full, setFull] = useState(initial.fullNameColumn ?? '');
  const [first, setFirst] = useState(initial.firstNameColumn ?? '');
  const [last, setLast] = useState(initial.lastNameColumn ?? '');
  // Opened while validation runs (another tab, a reload): the draft's status says so, not `busy`.
  const [busy, setBusy] = useState<string | null>(null);
  // A message shows beside the control it concerns (the phone columns, Validate, Confirm), which
  // points to it (aria-describedby), not at the top of the page or after another step's controls.
  const [error, setErrorAt] = useState<{ at: 'phones' | 'validate' | 'confirm'; text: string } | null>(null);
  const errorAt = (at: 'phones' | 'validate' | 'confirm') => (error?.at === at ? error.text : null);
  const [tier, setTier] = useState<'standard' | 'max'>('standard');
  const [skipMobile, setSkipMobile] = useState(false);
  // Rows the server has validated, read from the draft while validation runs (its request is still open).
  const [checked, setChecked] = useState<number | null>(draft.status === 'validating' ? (draft.validated_rows ?? 0) : null);
  const validating = busy === 'Validating…' || draft.status === 'validating';
  useEffect(() => {
    if (!validating) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async () => {
      try {
        const now = await api<Loaded>('GET', `/uploads/${draft.id}`);
        if (stopped) return;
        if ('draft' in now && now.draft.status === 'validating') setChecked(now.draft.validated_rows ?? 0);
        // Opened while another request validates: its end arrives here, not through our own request.
        else if (busy === null) return onChange(now);
      } catch {
        // A missed look is retried on the next tick; the validation request reports its own errors.
      }
      if (!stopped) timer = setTimeout(() => void look(), VALIDATION_POLL_MS);
    };
    void look();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [validating, draft.id]);

  const validateButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const pressedOn = focusAfterValidate.current;
    if (pressedOn === false || busy !== null || draft.status === 'validating') return;
    focusAfterValidate.current = false;
    const now = document.activeElement;
    if (now !== pressedOn && now !== document.body && now !== null) return;
    const heading = document.getElementById(draft.status === 'validation_failed' ? 'fail-h' : draft.status === 'awaiting_confirmation' && !errorAt('validate') ? 'confirm-h' : '');
    if (heading) {
      heading.setAttribute('tabindex', '-1');
      heading.focus();
    } else validateButton.current?.focus();
  });

  async function validate(e: Event) {
    e.preventDefault();
    if (phones.length === 0) return setErrorAt({ at: 'phones', text: 'Choose at least one phone column.' });
    setErrorAt(null);
    setChecked(0);
    focusAfterValidate.current = document.activeElement;
    setBusy('Validating…');
    try {
      onChange(
        await api<{ draft: Draft }>('POST', `/uploads/${draft.id}/mapping`, {
          phone_columns: phones,
          full_name_column: full || null,
          first_name_column: first || null,
          last_name_column: last || null,
        }),
      );
    } catch (err) {
      setErrorAt({ at: 'validate', text: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(null);
    }
  }

  async function confirm() {
    setErrorAt(null);
    setBusy('Confirming…');
    try {
      // The price on the button: the server charges exactly this or refuses (409) if the mapping changed meanwhile.
      const expected = tier === 'max' ? draft.validation!.price.max : draft.validation!.price.standard;
      // And the columns it was validated with, as this page shows them: another tab may have validated others at the same price.
      const m = draft.mapping!;
      const expected_mapping = { phone_columns: m.phoneColumns, full_name_column: m.fullNameColumn ?? null, first_name_column: m.firstNameColumn ?? null, last_name_column: m.lastNameColumn ?? null };
      onChange(await api<{ upload: Upload }>('POST', `/uploads/${draft.id}/confirm`, { validation_tier: tier, skip_mobile_lookup: skipMobile, expected_credits: expected, expected_mapping }));
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // Changed elsewhere: show the draft as it is now and what differs from what was shown.
        try {
          const now = await api<Loaded>('GET', `/uploads/${draft.id}`);
          return onChange(now, 'draft' in now && !confirmedElsewhere(now) ? { changes: draftChanges(draft, now.draft, tier) } : { elsewhere: true });
        } catch {
          // Fall through to the message.
        }
      }
      setErrorAt({ at: 'confirm', text: err instanceof Error ? err.message : String(err) });
      setBusy(null);
    }
  }

  // While our own validation request is open the draft is validating on the server, whatever we last loaded.
  const status = validating ? 'validating' : draft.status;
  const step = status === 'awaiting_confirmation' || status === 'confirming' ? 3 : status === 'validation_failed' || status === 'validating' ? 2 : 1;
  const v = draft.validation;
  // The price and the plan on the Confirm button are the validated mapping's; the server confirms that
  // one whatever the form shows, so an edited form must be validated again before it can be confirmed.
  const remapped = draft.status === 'awaiting_confirmation' && !sameMapping(draft.mapping, { phoneColumns: phones, fullNameColumn: full, firstNameColumn: first, lastNameColumn: last });
  const togglePhone = (col: string, on: boolean) => setPhones(on ? [...phones.filter((p) => p !== col), col].slice(0, 10) : phones.filter((p) => p !== col));
  // The API maps columns by name: a column without one, or whose name another column shares, cannot
  // be chosen (ticking one of two "Phone" columns would tick both and validate neither).
  const unmappable = (h: string) => h === '' || draft.header.indexOf(h) !== draft.header.lastIndexOf(h);
  const columnLabel = (h: string, i: number) => (h === '' ? `(column ${i + 1}, no name)` : h);
  const columnSelect = (id: string, text: string, value: string, set: (v: string) => void) => (
    <div class="field">
      <label for={id}>{text}</label>
      <select id={id} value={value} onChange={(e) => set((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">(none)</option>
        {draft.header.map((h, i) =>
          unmappable(h) ? null : (
            <option key={i} value={h}>
              {h}
            </option>
          ),
        )}
      </select>
    </div>
  );

  return (
    <>
      <h1>{draft.filename}</h1>
      <Steps current={step} />
      <p class="meta">
        <span class={`status s-${status}`}>{label(status)}</span> · {num(draft.total_rows)} rows ·{' '}
        {draft.sent_size_bytes == null ? `${num(draft.file_size_bytes)} bytes` : `${num(draft.sent_size_bytes)} bytes as sent, ${num(draft.file_size_bytes)} as CSV`}
      </p>
      <ImportFormatCard key={`${draft.import?.delimiter}${draft.import?.encoding}${draft.import?.header_row}`} draft={draft} onChange={(d) => onChange({ draft: d })} />

      <section aria-labelledby="preview-h">
        <h2 id="preview-h">Preview</h2>
        <TableWrap label="Preview of the file">
          <table>
            <caption class="sr-only">First rows of the file</caption>
            <thead>
              <tr>
                {draft.header.map((h, i) => (
                  <th key={i} scope="col">
                    {columnLabel(h, i)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {draft.preview.map((r, i) => (
                <tr key={i}>
                  {draft.header.map((_, c) => (
                    <td key={c}>{r[c] ?? ''}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>

      <form class="card" onSubmit={(e) => void validate(e)} aria-labelledby="map-h">
        <h2 id="map-h">Map columns</h2>
        <fieldset aria-describedby={errorAt('phones') ? 'phones-error' : undefined} aria-invalid={errorAt('phones') ? true : undefined}>
          <legend>Phone columns (up to 10)</legend>
          <div class="checks">
            {draft.header.map((h, i) => (
              <label key={i} class="check">
                <input
                  type="checkbox"
                  id={`phone-${i}`}
                  checked={!unmappable(h) && phones.includes(h)}
                  disabled={unmappable(h)}
                  aria-describedby={unmappable(h) ? `phone-${i}-why` : undefined}
                  onChange={(e) => {
                    togglePhone(h, (e.currentTarget as HTMLInputElement).checked);
                    if (error?.at === 'phones') setErrorAt(null);
                  }}
                />
                {columnLabel(h, i)}
                {unmappable(h) ? (
                  <span class="hint" id={`phone-${i}-why`}>
                    {h === '' ? '(give it a name in the file to use it)' : '(another column has this name: rename one in the file to use it)'}
                  </span>
                ) : (
                  draft.suggested.phone_columns.includes(h) && <span class="hint">(suggested)</span>
                )}
              </label>
            ))}
          </div>
          <FieldMessage id="phones-error" text={errorAt('phones')} />
        </fieldset>
        <fieldset>
          <legend>Names, for identity (optional)</legend>
          <div class="grid3">
            {columnSelect('full-name', 'Full name column', full, setFull)}
            {columnSelect('first-name', 'First name column', first, setFirst)}
            {columnSelect('last-name', 'Last name column', last, setLast)}
          </div>
        </fieldset>
        <button ref={validateButton} type="submit" disabled={busy !== null || draft.status === 'validating' || draft.status === 'confirming'} aria-describedby={errorAt('validate') ? 'validate-error' : undefined}>
          Validate
        </button>
        <FieldMessage id="validate-error" text={errorAt('validate')} />
        {validating ? (
          <ValidationProgress done={checked ?? 0} total={draft.total_rows} state="running" />
        ) : (
          draft.validated_rows !== undefined && draft.status !== 'pending_mapping' && <ValidationProgress done={draft.validated_rows} total={draft.total_rows} state={draft.status === 'validation_failed' ? 'stopped' : 'done'} />
        )}
      </form>

      {draft.status === 'validation_failed' && draft.failure && (
        <section class="card failed" aria-labelledby="fail-h">
          <h2 id="fail-h">Validation failed</h2>
          <p role="alert">{describe(draft.failure.detail)}</p>
          {v && <Counts v={v} />}
          <InvalidCells draft={draft} />
          <p>Change the mapping above and validate again, or fix the file and start a new upload.</p>
        </section>
      )}

      {draft.status === 'awaiting_confirmation' && v && (
        <section class="card" aria-labelledby="confirm-h">
          <h2 id="confirm-h">Confirm</h2>
          <Counts v={v} />
          <fieldset>
            <legend>Validation tier</legend>
            <div class="checks">
            <label class="check">
              <input type="radio" name="tier" value="standard" checked={tier === 'standard'} onChange={() => setTier('standard')} />
              <span>
                Standard: <strong>{num(v.price.standard)} credits</strong>
              </span>
            </label>
            <label class="check">
              <input type="radio" name="tier" value="max" checked={tier === 'max'} onChange={() => setTier('max')} />
              <span>
                Max: <strong>{num(v.price.max)} credits</strong>
              </span>
            </label>
            </div>
          </fieldset>
          <label class="check">
            <input type="checkbox" checked={skipMobile} onChange={(e) => setSkipMobile((e.currentTarget as HTMLInputElement).checked)} />
            Skip the mobile lookup
          </label>
          <InvalidCells draft={draft} />
          {remapped && (
            <p id="remapped-note" role="status" class="note">
              The mapping above was changed after it was validated, and this price is for the validated one. Validate again to see the new mapping's price, or change the mapping back.
            </p>
          )}
          <button type="button" class="primary-action" onClick={() => void confirm()} disabled={busy !== null || remapped} aria-describedby={[remapped && 'remapped-note', errorAt('confirm') && 'confirm-error'].filter(Boolean).join(' ') || undefined}>
            Confirm and charge {num(tier === 'max' ? v.price.max : v.price.standard)} credits
          </button>
          <FieldMessage id="confirm-error" text={errorAt('confirm')} />
        </section>
      )}
      {draft.status === 'confirming' && <p role="status">Confirming…</p>}
      {['pending_mapping', 'validation_failed', 'awaiting_confirmation'].includes(draft.status) && busy === null && <DiscardDraft id={draft.id} />}
    </>
  );
}

/** Whether the form's columns are the mapping the draft was validated with (phone columns in order; no name column is ''). */
function sameMapping(validated: Draft['mapping'], form: { phoneColumns: string[]; fullNameColumn: string; firstNameColumn: string; lastNameColumn: string }): boolean {
  if (!validated) return false;
  return (
    validated.phoneColumns.join('\u0000') === form.phoneColumns.join('\u0000') &&
    (validated.fullNameColumn ?? '') === form.fullNameColumn &&
    (validated.firstNameColumn ?? '') === form.firstNameColumn &&
    (validated.lastNameColumn ?? '') === form.lastNameColumn
  );
}

/** A refusal shown where it belongs, under the control that points to it by `id`. */
function FieldMessage({ id, text }: { id: string; text: string | null }) {
  return text ? (
    <p id={id} role="alert" class="error field-message">
      {text}
    </p>
  ) : null;
}

/** Discards a draft (nothing was charged), then back to the list, which takes the draft's place in the history (Back does not lead to a draft that is gone). */
function DiscardDraft({ id }: { id: string }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <p>
      <button type="button" class="secondary" onClick={() => api('DELETE', `/uploads/${id}`).then(() => navigate('/uploads', { replace: true }), (e: Error) => setError(e.message))}>
        Discard this draft
      </button>{' '}
      Nothing has been charged for it.
      {error && (
        <span role="alert" class="error">
          {' '}
          {error}
        </span>
      )}
    </p>
  );
}

function describe(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (detail && typeof detail === 'object' && 'message' in detail) return String((detail as { message: unknown }).message);
  return JSON.stringify(detail);
}

function Counts({ v }: { v: NonNullable<Draft['validation']> }) {
  return (
    <dl class="counts">
      <div>
        <dt>Rows</dt>
        <dd>{num(v.total_rows)}</dd>
      </div>
      <div>
        <dt>Valid numbers</dt>
        <dd>{num(v.valid_number_count)}</dd>
      </div>
      <div>
        <dt>Invalid</dt>
        <dd>{num(v.invalid_count)}</dd>
      </div>
      <div>
        <dt>Duplicates</dt>
        <dd>{num(v.duplicate_count)}</dd>
      </div>
    </dl>
  );
}

function InvalidCells({ draft }: { draft: Draft }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      {draft.invalid_cells.length > 0 && (
        <details>
          <summary>Invalid cells ({draft.invalid_cells.length === 100 ? 'first 100' : draft.invalid_cells.length})</summary>
          <TableWrap label="Invalid cells">
            <table>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Value</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {draft.invalid_cells.map((c) => (
                  <tr key={`${c.row}-${c.column}`}>
                    <td>{c.row}</td>
                    <td>{c.column}</td>
                    <td>{c.value}</td>
                    <td>{c.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </details>
      )}
      <button type="button" class="secondary" onClick={() => download(`/uploads/${draft.id}/report`).catch((e: Error) => setError(e.message))}>
        Download validation report
      </button>
      {error && <p role="alert" class="error">{error}</p>}
    </>
  );
}

function Results({ upload, progress, sent }: { upload: Upload; progress: Progress | null; sent: SentFile | null }) {
  const [error, setError] = useState<string | null>(null);
  const identity = upload.result_summary?.format === 'identity';
  const vocabulary = identity ? TIERS : ANSWER_INTENTS;
  const [statuses, setStatuses] = useState<string[]>([]);
  const [sorted, setSorted] = useState(false);
  // On by default: cells a spreadsheet would run as formulas come back as text (the API's neutralize_formulas).
  const [safe, setSafe] = useState(true);
  // Off by default, as the API's include_identity: a single phone column's file then has no Service_Identity.
  const [withIdentity, setWithIdentity] = useState(false);
  const done = upload.status === 'completed';
  const get = (path: string) => download(`/uploads/${upload.id}/download/${path}`).catch((e: Error) => setError(e.message));
  const processed = (slice: boolean) => {
    const q = new URLSearchParams();
    if (slice && statuses.length) q.set('statuses', statuses.join(','));
    if (slice && sorted) q.set('sort', 'best_status');
    if (upload.identity_enabled && withIdentity) q.set('include_identity', 'true');
    if (safe) q.set('neutralize_formulas', 'true');
    return get(`processed${q.size ? `?${q}` : ''}`);
  };
  return (
    <>
      <h1>{upload.original_filename}</h1>
      {/* The in-app steps are a web upload's; an API or pooled upload never went through them. */}
      {upload.source === 'web' && <Steps current={4} />}
      <p class="meta">
        <span class={`status s-${upload.status}`}>{label(upload.status)}</span> · from the {sourceWords(upload.source)} · {upload.validation_tier} validation · created {when(upload.created_at)}
      </p>
      {!done && upload.status !== 'failed' && <Processing progress={progress} />}
      {upload.status === 'failed' && <p role="alert" class="error">Processing failed: {upload.error_message}. {upload.credits_refunded ? `${num(upload.credits_refunded)} credits were refunded.` : ''}</p>}
      <dl class="counts">
        <div>
          <dt>Rows</dt>
          <dd>{num(upload.result_summary?.total_rows ?? progress?.rows_total)}</dd>
        </div>
        <div>
          <dt>Rows with a number</dt>
          <dd>{num(upload.valid_row_count)}</dd>
        </div>
        <div>
          <dt>Valid numbers</dt>
          <dd>{num(upload.valid_number_count)}</dd>
        </div>
        <div>
          <dt>Invalid</dt>
          <dd>{num(upload.invalid_row_count)}</dd>
        </div>
        <div>
          <dt>Credits charged</dt>
          <dd>{num(upload.credits_charged)}</dd>
        </div>
      </dl>
      {upload.result_summary && (
        <section aria-labelledby="results-h">
          <h2 id="results-h">Results</h2>
          {upload.result_summary.simulated && <p class="note">Simulated results (local development data, not real carrier signals).</p>}
          <TierChart counts={upload.result_summary.status_counts} order={vocabulary} title={identity ? 'Contacts by tier' : 'Contacts by Answer Intent'} />
        </section>
      )}
      <section class="card" aria-labelledby="dl-h">
        <h2 id="dl-h">Downloads</h2>
        {sent && (
          <p class="note">
            {sent.workbook_sheet ? `${sent.filename} (its worksheet ${sent.workbook_sheet})` : sent.filename} was converted to CSV (UTF-8, commas) for processing; the original and the processed file are that CSV.
          </p>
        )}
        <div class="buttons">
          {sent && (
            <button type="button" class="secondary" onClick={() => void get('sent')}>
              Download {sent.filename} as sent
            </button>
          )}
          <button type="button" class="secondary" onClick={() => void get('original')}>
            {sent ? 'Download original (the CSV processed)' : 'Download original'}
          </button>
          <button type="button" onClick={() => void processed(false)} disabled={!done}>
            Download processed file
          </button>
        </div>
        <label class="check">
          <input type="checkbox" checked={safe} onChange={(e) => setSafe((e.currentTarget as HTMLInputElement).checked)} />
          Make cells safe to open in a spreadsheet (a cell starting with =, +, -, @ gets a leading ' so it is not run as a formula; turn off to get every cell exactly as uploaded)
        </label>
        {upload.identity_enabled && (
          <label class="check">
            <input type="checkbox" checked={withIdentity} onChange={(e) => setWithIdentity((e.currentTarget as HTMLInputElement).checked)} />
            Include the identity column (Service_Identity, whether the number belongs to the named person) in the processed file and slices; a file with several phone columns always has each phone column's identity
          </label>
        )}
        {done && (
          <fieldset>
            <legend>A slice of the results</legend>
            <div class="checks">
              {vocabulary.map((s) => (
                <label key={s} class="check">
                  <input type="checkbox" checked={statuses.includes(s)} onChange={(e) => setStatuses((e.currentTarget as HTMLInputElement).checked ? [...statuses, s] : statuses.filter((x) => x !== s))} />
                  {s}
                </label>
              ))}
            </div>
            <label class="check">
              <input type="checkbox" checked={sorted} onChange={(e) => setSorted((e.currentTarget as HTMLInputElement).checked)} />
              Best numbers first
            </label>
            <button type="button" class="secondary primary-action" onClick={() => void processed(true)}>
              Download slice
            </button>
          </fieldset>
        )}
        {error && <p role="alert" class="error">{error}</p>}
      </section>
    </>
  );
}

/** Processing: numbers (or number-and-name pairs, with identity) classified, a percentage of them and the time left at the pace so far (derived from its chunks). */
function Processing({ progress }: { progress: Progress | null }) {
  if (!progress) {
    return (
      <div class="progress" role="status">
        <progress aria-label="Processing" /> Waiting to start… this page updates by itself.
      </div>
    );
  }
  const eta = progress.eta_seconds === null ? "estimating time left…" : progress.eta_seconds === 0 ? "finishing…" : progress.eta_seconds >= 90 ? `about ${Math.round(progress.eta_seconds / 60)} minutes left` : `about ${counted(progress.eta_seconds, 'second')} left`;
  return (
    <div class="progress">
      <label for="processing-progress">Processing</label>
      <progress id="processing-progress" max={100} value={progress.percent}>
        {progress.percent}%
      </progress>
      <span role="status">
        {num(progress.numbers_done)} of {num(progress.numbers_total)} {progress.unit === 'number_name_pairs' ? 'number-and-name pairs' : 'numbers'} classified ({progress.percent}%), {eta}
      </span>
    </div>
  );
}
