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
  if (existing) throw duplicateUrl(existing);
}

export const duplicateUrl = (existingId: string): Conflict =>
  new Conflict(`This organization already has a webhook endpoint for this URL (${existingId}); change or delete that one instead`);

/** A registration (URL checks, a ping of at most the outbound timeout, two writes) ends well within this. */
export const URL_CLAIM_BOUND_MS = 2 * 60_000;

/**
 * Whether a URL claim (lambdas/webhooks/url-claim.ts) still stands: its endpoint holds the URL, or
 * the registration or URL change that wrote it may still be under way. A claim younger than the
 * bound stands whatever its endpoint says (that write comes after the claim); an older one whose
 * endpoint is gone or now has another URL was left by a crash, and may be taken over.
 */
export function claimStands(claim: { claimed_at: number }, holder: { url: string } | null, identity: string, nowMs: number): boolean {
  if (nowMs - claim.claimed_at < URL_CLAIM_BOUND_MS) return true;
  return holder !== null && urlIdentity(holder.url) === identity;
}
