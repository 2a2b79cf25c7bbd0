import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

// Serves the built console (web/dist) the way CloudFront serves it from the bucket in AWS: files by
// path, index.html for the app's own routes, and the same security headers as the distribution's
// response headers policy (lib/console-construct.ts).

export const CONSOLE_DIST = resolve(import.meta.dirname, '..', 'web', 'dist');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
};

/** Strict: scripts and styles only from the console's own origin, no inline code, no framing. */
export function consoleCsp(connect: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${connect.length ? ` ${connect.join(' ')}` : ''}`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "manifest-src 'self'",
  ].join('; ');
}

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

export async function serveConsoleFile(req: IncomingMessage, res: ServerResponse, url: URL, extra: { config: unknown; connect: string[]; dist?: string }): Promise<boolean> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const dist = extra.dist ?? CONSOLE_DIST;
  const headers = { ...SECURITY_HEADERS, 'content-security-policy': consoleCsp(extra.connect) };
  if (url.pathname === '/console/config.json') {
    res.writeHead(200, { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(extra.config));
    return true;
  }
  let path: string;
  try {
    path = normalize(decodeURIComponent(url.pathname));
  } catch {
    return false;
  }
  let file = join(dist, path);
  if (!file.startsWith(dist + sep) && file !== dist) return false;
  const isAppRoute = !extname(path);
  if (isAppRoute) file = join(dist, 'index.html');
  let body: Buffer;
  try {
    if (!(await stat(file)).isFile()) return false;
    body = await readFile(file);
  } catch {
    if (!isAppRoute) return false;
    res.writeHead(503, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
    res.end('The console is not built: run `npm run build:web` (npm start does it), then reload.\n');
    return true;
  }
  const immutable = path.startsWith('/assets/');
  res.writeHead(200, {
    ...headers,
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    'content-length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
