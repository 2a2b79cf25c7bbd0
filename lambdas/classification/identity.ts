import type { IdentityBand } from './vocabulary';

// Identity: does the supplied name belong to the number's subscriber? Compared against the
// provider's own score when it has one, else against the subscriber name it returns. No signal is
// `Unknown` — never a claim that the number is safe.

const NICKNAMES: Record<string, string[]> = {
  robert: ['bob', 'rob', 'bobby', 'robbie', 'bert'],
  elizabeth: ['liz', 'beth', 'betty', 'eliza', 'lizzie', 'libby'],
  william: ['bill', 'will', 'billy', 'liam'],
  richard: ['rick', 'dick', 'rich', 'ricky'],
  margaret: ['maggie', 'meg', 'peggy', 'marge'],
  katherine: ['kate', 'kathy', 'katie', 'kat', 'catherine', 'kathryn'],
  james: ['jim', 'jimmy', 'jamie'],
  john: ['jack', 'johnny'],
  joseph: ['joe', 'joey'],
  michael: ['mike', 'mikey'],
  thomas: ['tom', 'tommy'],
  christopher: ['chris'],
  jennifer: ['jen', 'jenny'],
  patricia: ['pat', 'patty', 'trish'],
  alexander: ['alex', 'sasha'],
  daniel: ['dan', 'danny'],
  anthony: ['tony'],
  edward: ['ed', 'eddie', 'ted'],
  susan: ['sue', 'susie'],
  deborah: ['deb', 'debbie'],
  nicholas: ['nick'],
  samuel: ['sam'],
  benjamin: ['ben'],
  steven: ['steve', 'stephen'],
  charles: ['charlie', 'chuck'],
};
const CANONICAL = new Map<string, string>();
for (const [name, nicks] of Object.entries(NICKNAMES)) {
  CANONICAL.set(name, name);
  for (const n of nicks) CANONICAL.set(n, name);
}

/** Lower case, accents and punctuation removed, split into words. */
export function nameTokens(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z\s-]/g, ' ')
    .split(/[\s-]+/)
    .filter(Boolean);
}

const canonical = (token: string) => CANONICAL.get(token) ?? token;

export interface SuppliedName {
  full?: string;
  first?: string;
  last?: string;
}

function split(name: SuppliedName): { first: string[]; last: string[] } | null {
  if (name.first && name.last) return { first: nameTokens(name.first), last: nameTokens(name.last) };
  if (name.full) {
    // "Last, First" or "First Middle Last".
    if (name.full.includes(',')) {
      const [last, first] = name.full.split(',', 2);
      return { first: nameTokens(first ?? ''), last: nameTokens(last ?? '') };
    }
    const tokens = nameTokens(name.full);
    if (tokens.length === 0) return null;
    return tokens.length === 1 ? { first: [], last: tokens } : { first: tokens.slice(0, -1), last: tokens.slice(-1) };
  }
  return null;
}

/** The supplied name against a subscriber name (any order, middle names and initials allowed). */
export function matchNames(supplied: SuppliedName, subscriber: string): IdentityBand {
  const s = split(supplied);
  const theirs = nameTokens(subscriber);
  if (!s || theirs.length === 0) return 'Unknown';
  const theirCanon = new Set(theirs.map(canonical));
  const lastHit = s.last.length > 0 && s.last.every((t) => theirs.includes(t));
  const firstToken = s.first[0];
  const firstExact = firstToken !== undefined && theirs.includes(firstToken);
  const firstNick = firstToken !== undefined && theirCanon.has(canonical(firstToken));
  const firstInitial = firstToken !== undefined && (theirs.some((t) => t.length === 1 && t === firstToken[0]) || (firstToken.length === 1 && theirs.some((t) => t.startsWith(firstToken))));
  if (lastHit && firstExact) return 'Very High';
  if (lastHit && (firstNick || firstInitial)) return 'High';
  if (lastHit) return 'Medium';
  if (firstExact || firstNick) return 'Low';
  return 'Low';
}

/** A provider's 0–100 score as a band. */
export function bandFromScore(score: number): IdentityBand {
  if (score >= 80) return 'Very High';
  if (score >= 60) return 'High';
  if (score >= 40) return 'Medium';
  return 'Low';
}

/**
 * A provider's yes/no verdict (Trestle Real Contact's `name_match`) as a band: a match is High,
 * not Very High, as it does not say whether it was exact or allowed a nickname or initial; no match
 * is Low, as when a returned subscriber name does not match.
 */
export function bandFromVerdict(match: boolean): IdentityBand {
  return match ? 'High' : 'Low';
}

/** Whether a name was supplied that identity can be judged on (a full name, or first and last). */
export function hasName(supplied: SuppliedName | undefined): supplied is SuppliedName {
  return Boolean(supplied && (supplied.full || (supplied.first && supplied.last)));
}

export function identityOf(
  supplied: SuppliedName | undefined,
  signals: { nameMatchScore: number | null; callerName: string | null; nameMatch?: boolean | null },
): IdentityBand | null {
  if (!hasName(supplied)) return null;
  if (signals.nameMatchScore !== null) return bandFromScore(signals.nameMatchScore);
  if (typeof signals.nameMatch === 'boolean') return bandFromVerdict(signals.nameMatch);
  if (signals.callerName) return matchNames(supplied, signals.callerName);
  return 'Unknown';
}
