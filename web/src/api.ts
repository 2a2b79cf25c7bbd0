import { currentUser } from './auth';
import { describeFailure, UNREACHABLE } from './api-words';

// The console's API client: /console/api/* with the signed-in user's access token.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(describeFailure(detail, status));
  }
}

let onUnauthorized: () => void = () => undefined;
export const whenUnauthorized = (fn: () => void) => {
  onUnauthorized = fn;
};

async function token(): Promise<string> {
  const user = await currentUser();
  if (!user) {
    onUnauthorized();
    throw new ApiError(401, 'Sign in again');
  }
  return user.access_token;
}

async function handle<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as { detail?: unknown } | null;
  if (res.status === 401) onUnauthorized();
  if (!res.ok) throw new ApiError(res.status, body?.detail ?? null);
  return body as T;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const bearer = await token();
  let res: Response;
  try {
    res = await fetch(`/console/api${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // fetch rejects only when no answer came (a TypeError, "Failed to fetch").
    throw new ApiError(0, UNREACHABLE);
  }
  return handle<T>(res);
}

/** Sends a file as the request body, reporting upload progress (0..1). */
export async function sendFile<T>(path: string, file: File, onProgress: (fraction: number) => void): Promise<T> {
  const bearer = await token();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/console/api${path}`);
    xhr.setRequestHeader('authorization', `Bearer ${bearer}`);
    xhr.setRequestHeader('content-type', 'text/csv');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'The upload was interrupted; check the connection and try again'));
    xhr.onload = () => {
      let body: { detail?: unknown } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { detail?: unknown };
      } catch {
        body = null;
      }
      if (xhr.status === 401) onUnauthorized();
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new ApiError(xhr.status, body?.detail ?? null));
    };
    xhr.send(file);
  });
}

export interface StagedPost {
  staged_upload_id: string;
  url: string;
  fields: Record<string, string>;
  max_bytes: number;
}

/**
 * Sends a file straight to the file store with the staging path's presigned POST (the form's
 * fields first, the file last, as S3 requires), reporting progress (0..1).
 */
export function postToStore(stage: StagedPost, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(stage.fields)) form.append(name, value);
    form.append('file', file);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', stage.url);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError(0, 'The upload to storage was interrupted; check the connection and try again'));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      // S3 answers in XML; its Message says why (too large, expired link).
      const message = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText)?.[1];
      reject(new ApiError(xhr.status, `Storage refused the file${message ? `: ${message}` : ` (${xhr.status})`}`));
    };
    xhr.send(form);
  });
}

/** Asks for a signed link and follows it: the browser downloads the file. */
export async function download(path: string): Promise<void> {
  const { url } = await api<{ url: string }>('GET', path);
  window.location.assign(url);
}
