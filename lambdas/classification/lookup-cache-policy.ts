import { createHash } from 'node:crypto';
import type { Config } from '../platform/config';
import type { LineStatus, LineType, LookupItem, LookupOptions } from './signals';

// What the lookup cache may serve (docs/classification.md, Lookup cache): signals per number by
// kind, each fresh for its own time, and identity answers per number and supplied name, kept for
// one organization unless the operator shares them. Plain rules; cached-provider.ts applies them.

/** Line type, carrier and call screening; line status (max tier); identity (a supplied name). */
export type SignalKind = 'line' | 'status' | 'identity';

export interface LookupCachePolicy {
  /** How long an answer of each kind is served; 0: that kind is never cached. */
  ttlMs: Record<SignalKind, number>;
  /** Identity answers reused across organizations (the operator's opt-in); otherwise each organization's own. */
  shareIdentity: boolean;
  /** How long a claim on a number being bought lasts (ms; 0: lookups do not claim or wait). */
  claimMs: number;
  /**
   * Where claims are kept: `table` (beside the cache entry: processes that share the table, as
   * Lambdas do), or `process` (this process's memory alone: `npm start`, one process over its
   * data folder, which its lock guarantees).
   */
  claimsIn: 'table' | 'process';
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function cachePolicyFromConfig(cfg: Pick<Config, 'LOOKUP_CACHE_LINE_TTL_DAYS' | 'LOOKUP_CACHE_STATUS_TTL_HOURS' | 'LOOKUP_CACHE_IDENTITY_TTL_DAYS' | 'LOOKUP_CACHE_SHARE_IDENTITY' | 'LOOKUP_CLAIM_SECONDS' | 'LOOKUP_CLAIMS'>): LookupCachePolicy {
  return {
    ttlMs: { line: cfg.LOOKUP_CACHE_LINE_TTL_DAYS * DAY_MS, status: cfg.LOOKUP_CACHE_STATUS_TTL_HOURS * HOUR_MS, identity: cfg.LOOKUP_CACHE_IDENTITY_TTL_DAYS * DAY_MS },
    shareIdentity: cfg.LOOKUP_CACHE_SHARE_IDENTITY,
    claimMs: cfg.LOOKUP_CLAIM_SECONDS * 1000,
    claimsIn: cfg.LOOKUP_CLAIMS,
  };
}

/** The answers the cache holds, each with the time (ms) the provider gave it. */
export interface LineAnswer {
  lineType: LineType;
  carrier: string | null;
  callScreening: boolean | null;
  /** Trestle's activity score and Telnyx's portability: what the provider says of the line itself. */
  activityScore: number | null;
  ported: boolean | null;
  at: number;
}
export interface StatusAnswer {
  lineStatus: LineStatus | null;
  at: number;
}
export interface IdentityAnswer {
  nameMatchScore: number | null;
  /** A provider's yes/no verdict on the name (Trestle). */
  nameMatch: boolean | null;
  callerName: string | null;
  at: number;
}
/** What the cache keeps per number (and provider): its line and its status, each optional. */
export interface NumberEntry {
  line?: LineAnswer;
  status?: StatusAnswer;
}

/** A clock a minute ahead of the writer's is tolerated; an answer dated later than that is not trusted. */
const MAX_SKEW_MS = 60_000;

/** An answer is fresh while younger than its kind's TTL. */
export function isFresh(answer: { at: number } | undefined, kind: SignalKind, policy: LookupCachePolicy, nowMs: number): boolean {
  if (!answer || !Number.isFinite(answer.at)) return false;
  const age = nowMs - answer.at;
  return age >= -MAX_SKEW_MS && age < policy.ttlMs[kind];
}

/** A name as identityOf counts it: a full name, or both first and last. */
export function hasName(name: LookupItem['name']): name is NonNullable<LookupItem['name']> {
  return Boolean(name && (name.full || (name.first && name.last)));
}

export type Needs = Record<SignalKind, boolean>;

/** The signal kinds a request needs for one number: what a fresh lookup would be asked. */
export function neededKinds(item: LookupItem, opts: Pick<LookupOptions, 'tier' | 'skipMobileLookup'>): Needs {
  return { line: !opts.skipMobileLookup, status: opts.tier === 'max', identity: hasName(item.name) };
}

/**
 * Where identity answers are kept: the organization's own scope, or the shared one when the
 * operator opted in. null: not cacheable (no organization named and nothing shared).
 */
export function identityScope(organizationId: string | undefined, policy: LookupCachePolicy): string | null {
  if (policy.shareIdentity) return 'shared';
  return organizationId ? `org:${organizationId}` : null;
}

const normalizePart = (s: string | undefined): string => (s ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The supplied name as the identity key holds it: case and spacing do not matter, anything else
 * does (a provider may score "José" and "Jose" differently). Stored hashed: the table keeps no
 * customer-supplied name.
 */
export function nameKey(name: NonNullable<LookupItem['name']>): string {
  const parts = name.first && name.last ? ['first-last', normalizePart(name.first), normalizePart(name.last)] : ['full', normalizePart(name.full)];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The DynamoDB TTL attribute (epoch seconds): when the last of the entry's fresh answers goes stale. */
export function expiresAtSeconds(answers: { kind: SignalKind; at: number }[], policy: LookupCachePolicy): number | null {
  const ends = answers.filter((a) => policy.ttlMs[a.kind] > 0).map((a) => a.at + policy.ttlMs[a.kind]);
  return ends.length ? Math.ceil(Math.max(...ends) / 1000) : null;
}
