import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import Busboy from 'busboy';
import { verifyPostPolicy, verifyRequest, type SigningSecret, type Verdict } from './sigv4';

/** The form fields of a POST upload must arrive within this many bytes, before the file. */
const MAX_FORM_PREFIX_BYTES = 1024 * 1024;

/**
 * Puts signature checks in front of the embedded store (s3rver answers unsigned requests and does
 * not check V4 signatures): every request must carry a valid AWS Signature Version 4 made with
 * this store's secret — an Authorization header, a presigned URL, or, for a browser POST upload,
 * a signed policy whose conditions the form meets. CORS preflights pass (they carry nothing).
 */
export function signedStoreGateway(store: RequestListener, secret: SigningSecret): RequestListener {
  return (req, res) => {
    if (req.method === 'OPTIONS') return store(req, res);
    const contentType = req.headers['content-type'] ?? '';
    const isFormUpload = req.method === 'POST' && /^multipart\/form-data/i.test(contentType) && !req.headers.authorization && !/[?&]X-Amz-Algorithm=/.test(req.url ?? '');
    if (!isFormUpload) {
      const verdict = verifyRequest({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers }, secret);
      return verdict.ok ? store(req, res) : refuse(req, res, verdict);
    }
    // A form upload's connection is not kept for another request: a client that reused it just as
    // the server's keep-alive timeout closed it would send its next file (up to 100 MB) into a
    // closed socket and get ECONNRESET, and a POST is not retried (CI met it: a test process busy
    // copying 100 MB read the idle socket's close too late). One connection per upload costs nothing.
    res.setHeader('connection', 'close');
    readFormPrefix(req)
      .then(({ fields, consumed }) => {
        const bucket = decodeURIComponent((req.url ?? '/').split('?')[0]!.split('/')[1] ?? '');
        const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
        const verdict = verifyPostPolicy({ fields, bucket, bodyLength: declared }, secret);
        if (!verdict.ok) return refuse(req, res, verdict);
        // Hand the store the whole body: what was read to find the fields goes back first.
        req.unshift(consumed);
        store(req, res);
      })
      .catch((error: unknown) => refuse(req, res, { ok: false, code: 'AccessDenied', message: `Malformed POST upload: ${(error as Error).message}` }));
  };
}

/** Reads a multipart body until its file part starts; returns the fields before it and the bytes read. */
function readFormPrefix(req: IncomingMessage): Promise<{ fields: Record<string, string>; consumed: Buffer }> {
  return new Promise((resolve, reject) => {
    const parser = Busboy({ headers: req.headers, limits: { fields: 50, fieldSize: 64 * 1024 } });
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      if (error) reject(error);
      else resolve({ fields, consumed: Buffer.concat(chunks, size) });
    };
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (_name, stream) => {
      stream.on('error', () => undefined);
      stream.resume();
      finish();
    });
    parser.on('error', (error: Error) => finish(error));
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      parser.write(chunk);
      if (!done && size > MAX_FORM_PREFIX_BYTES) finish(new Error(`no file part within the first ${MAX_FORM_PREFIX_BYTES} bytes`));
    };
    const onEnd = () => finish(new Error('the body has no file part'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', (error) => finish(error));
  });
}

function refuse(req: IncomingMessage, res: ServerResponse, verdict: Exclude<Verdict, { ok: true }>): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${verdict.code}</Code><Message>${escapeXml(verdict.message)}</Message></Error>`;
  res.writeHead(verdict.code === 'AuthorizationQueryParametersError' ? 400 : 403, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(req.method === 'HEAD' ? undefined : body);
  // Whatever the client still sends is not read.
  req.resume();
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
