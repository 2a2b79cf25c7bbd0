import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../platform/ids';

export const KEY_PREFIX = 'svc_live_';
/** Non-secret prefix length that identifies a key in listings (spec, Authentication 3). */
export const DISPLAY_PREFIX_LENGTH = 12;

export const SCOPES = ['uploads:write', 'uploads:read', 'webhooks:manage'] as const;

/** `svc_live_` + 32 URL-safe random characters (24 random bytes, base64url). */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(24).toString('base64url');
}

/** Only this hash is stored; the key itself is shown once. */
export const hashApiKey = (key: string): string => sha256Hex(key);

export const displayPrefix = (key: string): string => key.slice(0, DISPLAY_PREFIX_LENGTH);
