import { badRequest } from './errors';

// Opaque pagination cursors: the table's LastEvaluatedKey, base64url JSON. Clients must not
// build them; a tampered cursor is a 400, never a 500.

export const encodeCursor = (key: Record<string, unknown>): string => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const entries = Object.entries(value as Record<string, unknown>);
      if (entries.length > 0 && entries.every(([k, v]) => typeof k === 'string' && typeof v === 'string')) return value as Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  throw badRequest('Invalid cursor; pass next_cursor from the previous page unchanged');
}
