import type { Organization } from '../auth/identity-repository';

/** Numbers an organization ships with when its record predates the field. */
export const DEFAULT_INCLUDED_NUMBERS = 5;

/**
 * The spec's effective limit: the plan's included numbers plus purchased add-ons. null means no
 * cap (an organization whose included amount is explicitly null).
 */
export function effectiveLimit(org: Pick<Organization, 'spam_included_numbers' | 'spam_addon_numbers'>): number | null {
  const included = org.spam_included_numbers === undefined ? DEFAULT_INCLUDED_NUMBERS : org.spam_included_numbers;
  if (included === null) return null;
  return Math.max(0, included + Math.max(0, org.spam_addon_numbers ?? 0));
}

/**
 * Numbers beyond the limit are kept but not tested: the oldest numbers (by created_at, then id) up
 * to the limit are in. `ordered` must already be oldest first.
 */
export function inLimitIds(ordered: readonly { id: string }[], limit: number | null): Set<string> {
  return new Set((limit === null ? ordered : ordered.slice(0, limit)).map((n) => n.id));
}
