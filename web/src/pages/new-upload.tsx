import { useState } from 'preact/hooks';
import { api, postToStore, sendFile, type StagedPost } from '../api';
import { navigate } from '../router';
import type { Draft } from '../types';

const MAX_BYTES = 100 * 1024 * 1024;
/**
 * Larger files go straight to storage (the staging path): in AWS a request through the HTTP API
 * carries at most 10 MB, and a Lambda event 6 MB, which the body fills base64 encoded.
 */
export const DIRECT_MAX_BYTES = 4 * 1024 * 1024;

/** Step 1: choose a CSV or an XLSX; it is stored with a progress bar, then the mapping step opens (the server converts it). */
export function NewUploadPage() {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: Event) {
    e.preventDefault();
    if (!file) return setError('Choose a CSV file or an Excel workbook first');
    if (file.size > MAX_BYTES) return setError('The file is larger than 100 MB');
    setError(null);
    setProgress(0);
    try {
      let draft: Draft;
      if (file.size > DIRECT_MAX_BYTES) {
        const stage = await api<StagedPost>('POST', '/uploads/staging');
        await postToStore(stage, file, setProgress);
        ({ draft } = await api<{ draft: Draft }>('POST', '/uploads/staged', { staged_upload_id: stage.staged_upload_id, filename: file.name }));
      } else {
        ({ draft } = await sendFile<{ draft: Draft }>(`/uploads?filename=${encodeURIComponent(file.name)}`, file, setProgress));
      }
      navigate(`/uploads/${draft.id}`);
    } catch (err) {
      setProgress(null);
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <>
      <h1>New upload</h1>
      <p>A CSV, or an Excel workbook (.xlsx: its first worksheet is read), with at least 100 US or Canadian phone numbers. You map its columns and see the price before anything is charged.</p>
      <form onSubmit={(e) => void submit(e)} class="card">
        <label for="file">CSV file or Excel workbook</label>
        <input id="file" name="file" type="file" accept=".csv,.tsv,.txt,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" required onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />
        {progress !== null && (
          <div class="progress">
            <label for="upload-progress">Uploading</label>
            <progress id="upload-progress" max={1} value={progress}>
              {Math.round(progress * 100)}%
            </progress>
            <span aria-live="polite">{Math.round(progress * 100)}%</span>
          </div>
        )}
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={progress !== null}>
          Upload file
        </button>
      </form>
    </>
  );
}
