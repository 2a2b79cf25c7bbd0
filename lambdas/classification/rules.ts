import type { AnswerIntent } from './vocabulary';
import type { LineStatus, LineType, Signals } from './signals';

/**
 * Answer Intent from signals: a declarative table, first matching rule wins. Change the table,
 * bump the version; docs/classification.md shows it.
 *
 * 2026-11-25.1: Trestle's activity score and Telnyx's unspecified VoIP. A mobile or app number
 * whose activity score is at most LOW_ACTIVITY_MAX is Unknown, not Likely Answer; a VoIP number of
 * unknown kind is Unknown. Every other signal gives what 2026-11-22.1 gave.
 */
export const RULES_VERSION = '2026-11-25.1';

/**
 * Trestle documents 30 and below as "high confidence the phone is disconnected or no one will
 * answer", 70 and above as "connected and taking calls", and 50 as "not enough signals". Only the
 * high-confidence low band moves an answer: the middle band says no more than a provider without
 * an activity score (every mobile is then Likely Answer), and the high band confirms what the line
 * type already gives. Disconnected and unanswered are not told apart, so the answer is Unknown (as
 * for a line Twilio reports inactive), not Likely Voicemail.
 */
export const LOW_ACTIVITY_MAX = 30;

/** Line types whose Answer Intent is Non-Mobile whatever else is known (the first rule). */
export const NON_MOBILE_LINE_TYPES: readonly LineType[] = ['landline', 'tollFree', 'premium', 'pager', 'sharedCost', 'fixedVoip', 'personal'];

export interface Rule {
  id: string;
  when: { lineType?: readonly LineType[]; lineStatus?: LineStatus[]; callScreening?: boolean; activityScore?: { atMost: number } };
  then: AnswerIntent;
  why: string;
}

export const ANSWER_INTENT_RULES: readonly Rule[] = [
  { id: 'non-mobile-range', when: { lineType: NON_MOBILE_LINE_TYPES }, then: 'Non-Mobile', why: 'landline, VoIP and special ranges: no mobile behaviour to predict' },
  { id: 'disconnected', when: { lineStatus: ['inactive'] }, then: 'Unknown', why: 'the line is not in service: no call behaviour to predict' },
  { id: 'unreachable', when: { lineType: ['mobile', 'nonFixedVoip', 'unknown'], lineStatus: ['unreachable'] }, then: 'Likely Voicemail', why: 'handset off or out of coverage: calls go to voicemail' },
  {
    id: 'low-activity',
    when: { lineType: ['mobile', 'nonFixedVoip'], activityScore: { atMost: LOW_ACTIVITY_MAX } },
    then: 'Unknown',
    why: 'no call activity seen: disconnected or nobody answers, and which is not told',
  },
  { id: 'screening', when: { lineType: ['mobile', 'nonFixedVoip'], callScreening: true }, then: 'Likely Call Screening', why: 'the carrier or handset screens unknown callers' },
  { id: 'app-voip', when: { lineType: ['nonFixedVoip'] }, then: 'Likely Call Screening', why: 'app-based numbers mostly screen or forward' },
  { id: 'voip-unspecified', when: { lineType: ['voip'] }, then: 'Unknown', why: 'fixed VoIP is Non-Mobile and app VoIP screens: the provider does not say which this is' },
  { id: 'mobile', when: { lineType: ['mobile'] }, then: 'Likely Answer', why: 'an active mobile line with no screening signal' },
  { id: 'no-signal', when: {}, then: 'Unknown', why: 'nothing known about the line' },
];

export function matches(rule: Rule, s: Signals): boolean {
  const w = rule.when;
  if (w.lineType && !w.lineType.includes(s.lineType)) return false;
  if (w.lineStatus && (s.lineStatus === null || !w.lineStatus.includes(s.lineStatus))) return false;
  if (w.callScreening !== undefined && s.callScreening !== w.callScreening) return false;
  if (w.activityScore && (s.activityScore === null || s.activityScore > w.activityScore.atMost)) return false;
  return true;
}

export function answerIntentOf(signals: Signals): { intent: AnswerIntent; rule: string } {
  const rule = ANSWER_INTENT_RULES.find((r) => matches(r, signals))!;
  return { intent: rule.then, rule: rule.id };
}
