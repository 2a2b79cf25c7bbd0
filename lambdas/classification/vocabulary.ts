export type AnswerIntent = 'Likely Answer' | 'Likely Call Screening' | 'Likely Voicemail' | 'Non-Mobile' | 'Unknown';
export type IdentityBand = 'Very High' | 'High' | 'Medium' | 'Low' | 'Unknown';

export const ANSWER_INTENTS: readonly AnswerIntent[] = ['Likely Answer', 'Likely Call Screening', 'Likely Voicemail', 'Non-Mobile', 'Unknown'];
export const IDENTITY_BANDS: readonly IdentityBand[] = ['Very High', 'High', 'Medium', 'Low', 'Unknown'];

/** The nine tiers in the spec's order (sort or filter on the numeric prefix). */
export const TIERS: readonly string[] = [
  '1 - Likely Right-Party Answer',
  '2 - Likely Answer',
  '3 - Likely Right-Party Call Screening',
  '4 - Likely Call Screening',
  '5 - Likely Right-Party Voicemail',
  '6 - Likely Voicemail',
  '7 - Non-Mobile',
  '8 - Likely Wrong Number',
  'Unknown',
];

const RIGHT_PARTY: Record<string, [string, string]> = {
  'Likely Answer': ['1 - Likely Right-Party Answer', '2 - Likely Answer'],
  'Likely Call Screening': ['3 - Likely Right-Party Call Screening', '4 - Likely Call Screening'],
  'Likely Voicemail': ['5 - Likely Right-Party Voicemail', '6 - Likely Voicemail'],
};

/**
 * The spec's derivation, read literally: take the Answer Intent; identity Low replaces it with
 * 'Likely Wrong Number', whatever it was (a landline or an unclassifiable number that belongs to
 * someone else is still the wrong number to call); Medium or better inserts 'Right-Party' where the
 * value has a place for it (Answer, Call Screening, Voicemail). Non-Mobile and Unknown have no
 * Right-Party tier, so any other identity leaves them as they are. Without identity the status is
 * the Answer Intent value.
 */
export function deriveStatus(ai: AnswerIntent, identity: IdentityBand | null): string {
  if (identity === null) return ai;
  if (identity === 'Low') return '8 - Likely Wrong Number';
  if (ai === 'Non-Mobile') return '7 - Non-Mobile';
  if (ai === 'Unknown') return 'Unknown';
  const [rightParty, plain] = RIGHT_PARTY[ai]!;
  return identity === 'Very High' || identity === 'High' || identity === 'Medium' ? rightParty : plain;
}
