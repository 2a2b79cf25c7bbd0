import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readSecretString } from './aws/secrets';
import { InvalidInput } from './domain-errors';
import { config } from './config';
import { perConfig } from './per-config';

// Pagination cursors are opaque and authenticated: the position (a table key) is encrypted with
// AES-256-GCM under a service key, with the list it belongs to (its name, organization and filters)
// as additional authenticated data. A client sees random bytes, learns no table key or id, and any
// cursor that is tampered with, truncated, invented, or issued for another list, filter or
// organization fails authentication: a 400, never a query DynamoDB would refuse with a 500.
//
// The key (docs/architecture.md, "Pagination cursors"): CURSOR_SECRET when set (the local runtime
// sets it from a file it generates in its data folder); otherwise the Secrets Manager secret named
// by CURSOR_SECRET_ARN (the CDK stack creates one with a generated value); with neither, a
// deployed function refuses to guess, and anything else (tests, scripts) uses a key of this process.

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const INVALID = 'Invalid cursor: pass next_cursor from the previous page of the same list, with the same filters, unchanged';

/** The one 400 for every cursor that is not the unchanged next_cursor of this list. */
export const invalidCursor = () => new InvalidInput(INVALID);

// The key is loaded once per configuration (CURSOR_SECRET changed and parsed again: a new key).
const loaded = /* @__PURE__ */ perConfig((): { key: Promise<Buffer> | null } => ({ key: null }));

function cursorKey(): Promise<Buffer> {
  const slot = loaded();
  const key = (slot.key ??= loadSecret().then((secret) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'pagination-cursor/v1', 32))));
  // A failed load (Secrets Manager unreachable) is retried by the next request, not cached.
  key.catch(() => {
    if (slot.key === key) slot.key = null;
  });
  return key;
}

async function loadSecret(): Promise<string | Buffer> {
  const direct = config().CURSOR_SECRET;
  if (direct) {
    if (direct.length < 32) throw new Error('CURSOR_SECRET must be at least 32 characters');
    return direct;
  }
  const arn = config().CURSOR_SECRET_ARN;
  if (arn) {
    const secret = await readSecretString(arn);
    if (!secret || secret.length < 32) throw new Error(`secret ${arn} must hold at least 32 characters`);
    return secret;
  }
  if (config().AWS_LAMBDA_FUNCTION_NAME || config().DEPLOYMENT === 'aws') {
    throw new Error('Neither CURSOR_SECRET nor CURSOR_SECRET_ARN is set: pagination cursors cannot be issued or checked');
  }
  return randomBytes(32);
}

/**
 * The list a cursor belongs to: its name, the organization and every filter that shapes it. A
 * cursor only decodes under exactly the same scope.
 */
export function cursorScope(list: string, organizationId: string, filters: Record<string, string | undefined> = {}): string {
  const parts = Object.keys(filters)
    .sort()
    .map((name) => `${name}=${filters[name] ?? '*'}`);
  return JSON.stringify([list, organizationId, ...parts]);
}

export async function encodeCursor(scope: string, position: Record<string, string>): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await cursorKey(), iv);
  cipher.setAAD(Buffer.from(scope, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(position), 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The position inside a cursor issued for `scope`, or a 400 for anything else. */
export async function decodeCursor(scope: string, cursor: string): Promise<Record<string, string>> {
  const bytes = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url') : Buffer.alloc(0);
  if (bytes.length < 1 + IV_BYTES + TAG_BYTES + 2 || bytes[0] !== VERSION) throw invalidCursor();
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const body = bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES);
  const secretKey = await cursorKey();
  let text: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey, iv);
    decipher.setAAD(Buffer.from(scope, 'utf8'));
    decipher.setAuthTag(tag);
    text = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw invalidCursor();
  }
  const value = JSON.parse(text) as unknown;
  if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) throw invalidCursor();
  return value as Record<string, string>;
}
