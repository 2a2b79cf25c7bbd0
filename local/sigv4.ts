import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Verification of AWS Signature Version 4 as S3 applies it (header-signed requests, query-presigned
// URLs and browser POST policies), for the embedded store. s3rver itself accepts any V4 request
// and every unsigned one.

export interface SigningSecret {
  accessKeyId: string;
  secretAccessKey: string;
}

export type Verdict = { ok: true } | { ok: false; code: 'AccessDenied' | 'SignatureDoesNotMatch' | 'InvalidAccessKeyId' | 'AuthorizationQueryParametersError'; message: string };

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3 refuses header-signed requests whose date is further than this from its clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

const deny = (code: Exclude<Verdict, { ok: true }>['code'], message: string): Verdict => ({ ok: false, code, message });

/** RFC 3986 encoding, as SigV4 canonicalizes query keys and values. */
export const escapeUri = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');

export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

function sameSignature(expected: Buffer, provided: string): boolean {
  const given = Buffer.from(provided, 'utf8');
  const wanted = Buffer.from(expected.toString('hex'), 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** `YYYYMMDDTHHMMSSZ` to epoch ms, or NaN. */
function parseAmzDate(value: string | undefined): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

interface Credential {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  scope: string;
}

function parseCredential(value: string | undefined): Credential | null {
  const parts = (value ?? '').split('/');
  if (parts.length !== 5 || parts[4] !== 'aws4_request') return null;
  const [accessKeyId, date, region, service] = parts as [string, string, string, string];
  return { accessKeyId, date, region, service, scope: parts.slice(1).join('/') };
}

function decode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}

/** The raw query as [key, value] pairs, percent-decoded (a literal '+' stays '+', as signers treat it). */
function queryPairs(rawQuery: string): [string, string][] {
  if (!rawQuery) return [];
  return rawQuery.split('&').filter(Boolean).map((pair) => {
    const at = pair.indexOf('=');
    return at < 0 ? [decode(pair), ''] : [decode(pair.slice(0, at)), decode(pair.slice(at + 1))];
  });
}

function canonicalQuery(pairs: [string, string][], without?: string): string {
  return pairs
    .filter(([k]) => k !== without)
    .map(([k, v]) => [escapeUri(k), escapeUri(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export interface SignedRequest {
  method: string;
  /** Path and query exactly as received (req.url). */
  url: string;
  /** Lower-cased header names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
}

function headerValue(headers: SignedRequest['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function checkSignature(request: SignedRequest, credential: Credential, signedHeaders: string, amzDate: string, payloadHash: string, query: string, provided: string, secret: SigningSecret): Verdict {
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return deny('AccessDenied', 'The host header must be signed');
  const canonicalHeaders = names.map((name) => `${name}:${(headerValue(request.headers, name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const path = request.url.split('?')[0]!;
  const canonicalRequest = [request.method.toUpperCase(), path, query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const stringToSign = [ALGORITHM, amzDate, credential.scope, sha256Hex(canonicalRequest)].join('\n');
  const expected = hmac(signingKey(secret.secretAccessKey, credential.date, credential.region, credential.service), stringToSign);
  return sameSignature(expected, provided) ? { ok: true } : deny('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided');
}

function checkScope(credential: Credential | null, amzDate: string, secret: SigningSecret, service: string): Verdict {
  if (!credential) return deny('AuthorizationQueryParametersError', 'Malformed credential scope');
  if (credential.accessKeyId !== secret.accessKeyId) return deny('InvalidAccessKeyId', 'The access key id is not known to this store');
  if (credential.service !== service || !amzDate.startsWith(credential.date)) return deny('SignatureDoesNotMatch', 'The credential scope does not match the request');
  return { ok: true };
}

/**
 * Checks a request against the store's secret: an `Authorization: AWS4-HMAC-SHA256 ...` header
 * (date within 15 minutes), or `X-Amz-*` query parameters (not expired). Unsigned requests and
 * any other scheme are refused. The payload hash is taken as declared (the body is not hashed),
 * unless `signed.payloadHash` gives the body's own: DynamoDB's clients declare none.
 */
export function verifyRequest(request: SignedRequest, secret: SigningSecret, now = Date.now(), signed: { service: string; payloadHash?: string } = { service: 's3' }): Verdict {
  const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  const pairs = queryPairs(rawQuery);
  const param = (name: string) => pairs.find(([k]) => k === name)?.[1];
  const authorization = headerValue(request.headers, 'authorization');

  if (authorization !== undefined) {
    const m = /^AWS4-HMAC-SHA256\s+Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization.trim());
    if (!m) return deny('AccessDenied', 'Only AWS Signature Version 4 (AWS4-HMAC-SHA256) is accepted');
    const amzDate = headerValue(request.headers, 'x-amz-date') ?? '';
    const at = parseAmzDate(amzDate);
    if (Number.isNaN(at)) return deny('AccessDenied', 'x-amz-date is missing or malformed');
    if (Math.abs(now - at) > MAX_SKEW_MS) return deny('AccessDenied', 'The difference between the request time and the current time is too large');
    const credential = parseCredential(m[1]);
    const scope = checkScope(credential, amzDate, secret, signed.service);
    if (!scope.ok) return scope;
    const payloadHash = signed.payloadHash ?? headerValue(request.headers, 'x-amz-content-sha256');
    if (!payloadHash) return deny('AccessDenied', 'x-amz-content-sha256 is required');
    return checkSignature(request, credential!, m[2]!, amzDate, payloadHash, canonicalQuery(pairs), m[3]!, secret);
  }

  if (param('X-Amz-Algorithm') !== undefined) {
    if (param('X-Amz-Algorithm') !== ALGORITHM) return deny('AuthorizationQueryParametersError', 'X-Amz-Algorithm must be AWS4-HMAC-SHA256');
    const amzDate = param('X-Amz-Date') ?? '';
    const at = parseAmzDate(amzDate);
    const expires = Number(param('X-Amz-Expires'));
    const signature = param('X-Amz-Signature') ?? '';
    const signedHeaders = param('X-Amz-SignedHeaders') ?? '';
    if (Number.isNaN(at) || !Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGN_SECONDS || !/^[0-9a-f]{64}$/.test(signature) || !signedHeaders) {
      return deny('AuthorizationQueryParametersError', 'Malformed presigned URL parameters');
    }
    if (now > at + expires * 1000) return deny('AccessDenied', 'Request has expired');
    if (at - now > MAX_SKEW_MS) return deny('AccessDenied', 'Request is not yet valid');
    const credential = parseCredential(param('X-Amz-Credential'));
    const scope = checkScope(credential, amzDate, secret, signed.service);
    if (!scope.ok) return scope;
    const payloadHash = signed.payloadHash ?? param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
    return checkSignature(request, credential!, signedHeaders, amzDate, payloadHash, canonicalQuery(pairs, 'X-Amz-Signature'), signature, secret);
  }

  return deny('AccessDenied', 'Anonymous access is not allowed: sign the request (AWS Signature Version 4)');
}

export interface PostPolicyForm {
  /** Form fields before the file part, names as sent. */
  fields: Record<string, string>;
  bucket: string;
  /** Content-Length of the whole form body, when declared. */
  bodyLength: number | null;
}

/** Form bytes around the file in a POST upload (boundaries, part headers, fields) allowed above the policy's maximum size. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const POLICY_EXEMPT_FIELDS = new Set(['policy', 'x-amz-signature', 'file']);

/**
 * A browser-based POST upload: the policy must be signed with the store's secret, unexpired, and
 * every condition must hold for the form (every field but the exempt ones must be covered by a
 * condition, as S3 requires). `content-length-range` is checked against the whole body's length
 * with room for the form around the file.
 */
export function verifyPostPolicy(form: PostPolicyForm, secret: SigningSecret, now = Date.now()): Verdict {
  const fields = Object.fromEntries(Object.entries(form.fields).map(([k, v]) => [k.toLowerCase(), v]));
  const policyText = fields.policy;
  if (!policyText) return deny('AccessDenied', 'Anonymous access is not allowed: a POST upload needs a signed policy');
  if (fields['x-amz-algorithm'] !== ALGORITHM) return deny('AccessDenied', 'x-amz-algorithm must be AWS4-HMAC-SHA256');
  const amzDate = fields['x-amz-date'] ?? '';
  const credential = parseCredential(fields['x-amz-credential']);
  const scope = checkScope(credential, amzDate, secret, 's3');
  if (!scope.ok) return scope;
  const expected = hmac(signingKey(secret.secretAccessKey, credential!.date, credential!.region, credential!.service), policyText);
  if (!sameSignature(expected, fields['x-amz-signature'] ?? '')) return deny('SignatureDoesNotMatch', 'The policy signature does not match');

  let policy: { expiration?: string; conditions?: unknown[] };
  try {
    policy = JSON.parse(Buffer.from(policyText, 'base64').toString('utf8')) as typeof policy;
  } catch {
    return deny('AccessDenied', 'The policy is not valid JSON');
  }
  const expiration = Date.parse(policy.expiration ?? '');
  if (Number.isNaN(expiration) || now > expiration) return deny('AccessDenied', 'Invalid according to Policy: Policy expired');

  const values: Record<string, string> = { ...fields, bucket: form.bucket };
  const covered = new Set<string>(['bucket']);
  for (const condition of policy.conditions ?? []) {
    const failed = (what: string) => deny('AccessDenied', `Invalid according to Policy: Policy Condition failed: ${what}`);
    if (Array.isArray(condition)) {
      if (condition[0] === 'content-length-range') {
        const [, min, max] = condition as [string, number, number];
        if (form.bodyLength !== null && (form.bodyLength < Number(min) || form.bodyLength > Number(max) + FORM_OVERHEAD_BYTES)) return failed(JSON.stringify(condition));
        continue;
      }
      const [op, rawName, arg] = condition as [string, string, string];
      const name = String(rawName).replace(/^\$/, '').toLowerCase();
      covered.add(name);
      const value = values[name] ?? '';
      if (op === 'eq' && value !== String(arg)) return failed(JSON.stringify(condition));
      if (op === 'starts-with' && !value.startsWith(String(arg))) return failed(JSON.stringify(condition));
      if (op !== 'eq' && op !== 'starts-with') return failed(JSON.stringify(condition));
    } else if (condition && typeof condition === 'object') {
      for (const [rawName, expectedValue] of Object.entries(condition)) {
        const name = rawName.toLowerCase();
        covered.add(name);
        if ((values[name] ?? '') !== String(expectedValue)) return failed(JSON.stringify(condition));
      }
    }
  }
  for (const name of Object.keys(fields)) {
    if (POLICY_EXEMPT_FIELDS.has(name) || name.startsWith('x-ignore-') || covered.has(name)) continue;
    return deny('AccessDenied', `Invalid according to Policy: Extra input fields: ${name}`);
  }
  return { ok: true };
}
