import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { label, num, when } from '../format';
import { linkClick } from '../router';
import type { Draft, Upload } from '../types';

/** Every upload of the organization (web and API), and web uploads not confirmed yet. */
export function UploadsPage() {
  const [data, setData] = useState<{ drafts: Draft[]; data: Upload[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ drafts: Draft[]; data: Upload[] }>('GET', '/uploads').then(setData, (e: Error) => setError(e.message));
  }, []);
  return (
    <>
      <div class="title-row">
        <h1>Uploads</h1>
        <a class="button" href="/uploads/new" onClick={(e) => linkClick(e, '/uploads/new')}>
          New upload
        </a>
      </div>
      {error && <p role="alert" class="error">{error}</p>}
      {!data && !error && <p>Loading…</p>}
      {data && data.drafts.length > 0 && (
        <section aria-labelledby="drafts-h">
          <h2 id="drafts-h">In progress</h2>
          <div class="table-wrap">
            <table>
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
                    <td>
                      <a href={`/uploads/${d.id}`} onClick={(e) => linkClick(e, `/uploads/${d.id}`)}>
                        {d.filename}
                      </a>
                    </td>
                    <td>
                      <span class={`status s-${d.status}`}>{label(d.status)}</span>
                    </td>
                    <td>{num(d.total_rows)}</td>
                    <td>{when(d.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      {data && (
        <section aria-labelledby="all-h">
          <h2 id="all-h">All uploads</h2>
          {data.data.length === 0 ? (
            <p>No uploads yet. Start with a CSV of phone numbers.</p>
          ) : (
            <div class="table-wrap">
              <table>
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
                      <td>
                        <a href={`/uploads/${u.id}`} onClick={(e) => linkClick(e, `/uploads/${u.id}`)}>
                          {u.original_filename}
                        </a>
                      </td>
                      <td>
                        <span class={`status s-${u.status}`}>{label(u.status)}</span>
                      </td>
                      <td>{u.source}</td>
                      <td>{num(u.valid_row_count)}</td>
                      <td>{num(u.valid_number_count)}</td>
                      <td>{num(u.credits_charged)}</td>
                      <td>{when(u.created_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
    </>
  );
}
