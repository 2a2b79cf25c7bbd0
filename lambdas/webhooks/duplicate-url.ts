import { Conflict } from '../platform/domain-errors';

/**
 * One organization registers a URL once: a second endpoint for the same URL would receive every
 * event twice. Two spellings that reach the same resource are the same URL: the scheme and host in
 * any case, the default port written or not, an empty path or `/`, a fragment (never sent). Path and
 * query are compared as written (they are the receiver's to interpret).
 */
export function urlIdentity(url: string): string {
  try {
    const parsed = new URL(url.trim());
    parsed.hash = '';
    return parsed.href;
  } catch {
    // Not a URL: the URL check refuses it anyway; compare it as written.
    return url;
  }
}

/** The id of the endpoint (other than `exceptId`) already registered for `url`, or null. */
export function duplicateOf(endpoints: readonly { id: string; url: string }[], url: string, exceptId?: string): string | null {
  const identity = urlIdentity(url);
  return endpoints.find((e) => e.id !== exceptId && urlIdentity(e.url) === identity)?.id ?? null;
}

/** The 409 for a URL the organization already has (spec's `{ "detail": "..." }` envelope). */
export function assertUrlNotRegistered(endpoints: readonly { id: string; url: string }[], url: string, exceptId?: string): void {
  const existing = duplicateOf(endpoints, url, exceptId);
  if (existing) throw new Conflict(`This organization already has a webhook endpoint for this URL (${existing}); change or delete that one instead`);
}
