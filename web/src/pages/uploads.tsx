import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { label, num, sourceWords, when } from '../format';
import { linkClick } from '../router';
import type { Draft, Upload } from '../types';
import { TableWrap } from '../table-wrap';

type Listed = { drafts: Draft[]; data: Upload[]; next_cursor: string | null; scanned: number };
const STATUSES = ['ready_for_processing', 'processing', 'completed', 'failed', 'cancelled'];

/**
 * The search and the page as the address holds them: kept there (replaced, not a new history
 * entry), so a reload, a shared link or coming back from an upload's page shows the same page.
 * The cursors of the pages before it (for Newer) are the history entry's state: a link opened
 * elsewhere has none, and its Newer goes to the newest page.
 */
type Trail = (string | null)[];
function listInAddress(): { q: string; status: string; cursor: string | null; trail: Trail | null } {
  const params = new URLSearchParams(location.search);
  const status = params.get('status') ?? '';
  const cursor = params.get('cursor') || null;
  const saved = (history.state as { trail?: unknown } | null)?.trail;
  const trail = Array.isArray(saved) && saved.every((c) => c === null || typeof c === 'string') ? (saved as Trail) : null;
  return { q: (params.get('q') ?? '').trim().slice(0, 255), status: STATUSES.includes(status) ? status : '', cursor, trail: cursor ? trail : [] };
}

function keepListInAddress(filter: { q: string; status: string }, cursor: string | null, trail: Trail | null): void {
  const params = new URLSearchParams();
  if (filter.q) params.set('q', filter.q);
  if (filter.status) params.set('status', filter.status);
  if (cursor) params.set('cursor', cursor);
  history.replaceState({ ...(history.state as object | null), trail }, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
}

/** Every upload of the organization (web and API), and web uploads not confirmed yet. */
export function UploadsPage() {
  const [fromAddress] = useState(listInAddress);
  const [data, setData] = useState<Listed | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The cursors of the pages before this one (the API's cursors only go on): Newer pops one. null:
  // not known (a link opened elsewhere).
  const [trail, setTrail] = useState<Trail | null>(fromAddress.trail);
  const [cursor, setCursor] = useState<string | null>(fromAddress.cursor);
  const [q, setQ] = useState(fromAddress.q);
  const [status, setStatus] = useState(fromAddress.status);
  const [filter, setFilter] = useState({ q: fromAddress.q, status: fromAddress.status });
  const goTo = (nextCursor: string | null, nextTrail: Trail | null) => {
    setCursor(nextCursor);
    setTrail(nextTrail);
    keepListInAddress(filter, nextCursor, nextTrail);
  };
  useEffect(() => {
    const params = new URLSearchParams();
    if (cursor) params.set('cursor', cursor);
    if (filter.q) params.set('q', filter.q);
    if (filter.status) params.set('status', filter.status);
    setError(null);
    api<Listed>('GET', `/uploads${params.size ? `?${params}` : ''}`).then(setData, (e: Error) => setError(e.message));
  }, [cursor, filter]);
  const search = (e: Event) => {
    e.preventDefault();
    setTrail([]);
    setCursor(null);
    const next = { q: q.trim(), status };
    setFilter(next);
    keepListInAddress(next, null, []);
  };
  const older = () => goTo(data!.next_cursor, trail === null ? null : [...trail, cursor]);
  const newer = () => (trail === null || trail.length === 0 ? goTo(null, []) : goTo(trail[trail.length - 1]!, trail.slice(0, -1)));
  return (
    <>
      <div class="title-row">
        <h1>Uploads</h1>
        <a class="button" href="/uploads/new" onClick={(e) => linkClick(e, '/uploads/new')}>
          New upload
        </a>
      </div>
      <form class="card grid3" role="search" aria-label="Find uploads" onSubmit={search}>
        <div class="field">
          <label for="upload-q">File name contains</label>
          <input id="upload-q" type="search" value={q} maxLength={255} onInput={(e) => setQ((e.currentTarget as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="upload-status">Status</label>
          <select id="upload-status" value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {label(s)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <button type="submit">Search</button>
        </div>
      </form>
      {error && <p role="alert" class="error">{error}</p>}
      {!data && !error && <p>Loading…</p>}
      {data && data.drafts.length > 0 && (
        <section aria-labelledby="drafts-h">
          <h2 id="drafts-h">In progress</h2>
          <TableWrap label="Uploads in progress">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">Step</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Started</th>
                </tr>
              </thead>
              <tbody>
                {data.drafts.map((d) => (
                  <tr key={d.id}>
                    <td data-label="File" class="file">
                      <a href={`/uploads/${d.id}`} onClick={(e) => linkClick(e, `/uploads/${d.id}`)}>
                        {d.filename}
                      </a>
                    </td>
                    <td data-label="Step">
                      <span class={`status s-${d.status}`}>{label(d.status)}</span>
                    </td>
                    <td data-label="Rows">{num(d.total_rows)}</td>
                    <td data-label="Started">{when(d.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </section>
      )}
      {data && (
        <section aria-labelledby="all-h">
          <h2 id="all-h">All uploads</h2>
          {data.data.length === 0 ? (
            <p>{filter.q || filter.status ? (data.next_cursor ? 'None of the uploads read so far matches the search; Older reads further back.' : 'No upload matches the search.') : 'No uploads yet. Start with a CSV of phone numbers.'}</p>
          ) : (
            <TableWrap label="Uploads">
              <table class="stack">
                <thead>
                  <tr>
                    <th scope="col">File</th>
                    <th scope="col">Status</th>
                    <th scope="col">Source</th>
                    <th scope="col">Rows with a number</th>
                    <th scope="col">Valid numbers</th>
                    <th scope="col">Credits</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.data.map((u) => (
                    <tr key={u.id}>
                      <td data-label="File" class="file">
                        <a href={`/uploads/${u.id}`} onClick={(e) => linkClick(e, `/uploads/${u.id}`)}>
                          {u.original_filename}
                        </a>
                      </td>
                      <td data-label="Status">
                        <span class={`status s-${u.status}`}>{label(u.status)}</span>
                      </td>
                      <td data-label="Source">{sourceWords(u.source)}</td>
                      <td data-label="Rows with a number">{num(u.valid_row_count)}</td>
                      <td data-label="Valid numbers">{num(u.valid_number_count)}</td>
                      <td data-label="Credits">{num(u.credits_charged)}</td>
                      <td data-label="Created">{when(u.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
          <nav class="buttons pager" aria-label="Pages of uploads">
            <button type="button" class="secondary" disabled={cursor === null} onClick={newer}>
              {trail === null ? 'Newest' : 'Newer'}
            </button>
            <span role="status">
              {trail === null ? 'An older page' : `Page ${trail.length + 1}`}
              {(filter.q || filter.status) && data.next_cursor ? ` (searched ${num(data.scanned)} uploads; older ones on the next page)` : ''}
            </span>
            <button type="button" class="secondary" disabled={!data.next_cursor} onClick={older}>
              Older
            </button>
          </nav>
        </section>
      )}
    </>
  );
}
