// What a provider can tell about a number. Every field may be unknown (null): rules must not
// read more into a missing signal than "we do not know".

/**
 * `voip`: a VoIP number whose kind (fixed, as a business line, or app-based) the provider does not
 * tell (Telnyx); `fixedVoip` and `nonFixedVoip` when it does (Twilio, Trestle).
 */
export type LineType = 'mobile' | 'landline' | 'fixedVoip' | 'nonFixedVoip' | 'voip' | 'tollFree' | 'premium' | 'personal' | 'pager' | 'sharedCost' | 'unknown';
export type LineStatus = 'active' | 'inactive' | 'unreachable' | 'unknown';

export interface Signals {
  lineType: LineType;
  carrier: string | null;
  /** Only checked at the `max` tier. */
  lineStatus: LineStatus | null;
  /** Carrier-side screening service detected (simulator; some providers). */
  callScreening: boolean | null;
  /** The provider's name for the number's subscriber (CNAM), when it has one. */
  callerName: string | null;
  /** The provider's own match score (0–100) of the supplied name, when it scores names itself. */
  nameMatchScore: number | null;
  /** The provider's yes/no verdict on the supplied name, when it answers only that (Trestle Real Contact). */
  nameMatch: boolean | null;
  /**
   * How likely the line is connected and answered, 0–100, from its recent call activity (Trestle:
   * 70 and above connected and taking calls, 30 and below disconnected or unanswered, 50 too few
   * signals to say).
   */
  activityScore: number | null;
  /** Whether the number was ported from the carrier that owns its block (Telnyx portability). */
  ported: boolean | null;
  simulated: boolean;
  /**
   * Why the provider could not look the number up after its retries (every signal is then empty,
   * so the number is Unknown). Absent when the lookup answered.
   */
  lookupError?: string;
  /**
   * Where the answer came from, set by the lookup cache (cached-provider.ts): `paid` a paid
   * provider was asked, `cache` every signal needed was fresh in the cache, `free` the number's
   * range decided it or nothing paid was needed. Absent from a provider used without the cache.
   */
  origin?: LookupOrigin;
}

export type LookupOrigin = 'paid' | 'cache' | 'free';
/** Nothing known: what a provider answers for a number it has no signal for. */
export function noSignals(simulated = false): Signals {
  return { lineType: 'unknown', carrier: null, lineStatus: null, callScreening: null, callerName: null, nameMatchScore: null, nameMatch: null, activityScore: null, ported: null, simulated };
}

export interface LookupItem {
  e164: string;
  name?: { full?: string; first?: string; last?: string };
}

export interface LookupOptions {
  tier: 'standard' | 'max';
  skipMobileLookup: boolean;
  /** Whose lookup this is: the lookup cache keeps identity answers per organization (lookup-cache-policy.ts). */
  organizationId?: string;
  /** Whom the lookups are for (an upload's id): uploads waiting on the shared rate are served in turn (lane-queue.ts). */
  lane?: string;
  /**
   * Who buys the numbers (an upload's chunk item): its claims on them (cached-provider.ts) are taken
   * over at once by a retry of the same work; without one, each lookup is its own claimant.
   */
  claimant?: string;
}

/** libphonenumber's structural type as a line type: what the number's range alone says. */
export function lineTypeFromStructure(type: string | undefined): LineType {
  switch (type) {
    case 'MOBILE':
      return 'mobile';
    case 'FIXED_LINE':
      return 'landline';
    case 'TOLL_FREE':
      return 'tollFree';
    case 'PREMIUM_RATE':
      return 'premium';
    case 'VOIP':
      return 'fixedVoip';
    case 'PERSONAL_NUMBER':
      return 'personal';
    case 'PAGER':
      return 'pager';
    case 'SHARED_COST':
      return 'sharedCost';
    default:
      // FIXED_LINE_OR_MOBILE (almost every US/CA number): structure cannot tell.
      return 'unknown';
  }
}
