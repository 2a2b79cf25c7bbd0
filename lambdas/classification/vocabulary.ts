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
 * The spec's derivation: take the Answer Intent; identity Medium or better inserts 'Right-Party';
 * Low replaces it with 'Likely Wrong Number'. Non-Mobile and Unknown carry no identity signal of
 * their own, so Low does not override them (a landline is still a landline). Without identity the
 * status is the Answer Intent value.
 */
export function deriveStatus(ai: AnswerIntent, identity: IdentityBand | null): string {
  if (identity === null) return ai;
  if (ai === 'Non-Mobile') return '7 - Non-Mobile';
  if (ai === 'Unknown') return 'Unknown';
  if (identity === 'Low') return '8 - Likely Wrong Number';
  const [rightParty, plain] = RIGHT_PARTY[ai]!;
  return identity === 'Very High' || identity === 'High' || identity === 'Medium' ? rightParty : plain;
}
