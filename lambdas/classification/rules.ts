import type { AnswerIntent } from './vocabulary';
import type { LineStatus, LineType, Signals } from './signals';

/**
 * Answer Intent from signals: a declarative table, first matching rule wins. Change the table,
 * bump the version; docs/classification.md shows it.
 */
export const RULES_VERSION = '2026-11-22.1';

export interface Rule {
  id: string;
  when: { lineType?: LineType[]; lineStatus?: LineStatus[]; callScreening?: boolean };
  then: AnswerIntent;
  why: string;
}

export const ANSWER_INTENT_RULES: readonly Rule[] = [
  { id: 'non-mobile-range', when: { lineType: ['landline', 'tollFree', 'premium', 'pager', 'sharedCost', 'fixedVoip', 'personal'] }, then: 'Non-Mobile', why: 'landline, VoIP and special ranges: no mobile behaviour to predict' },
  { id: 'disconnected', when: { lineStatus: ['inactive'] }, then: 'Unknown', why: 'the line is not in service: no call behaviour to predict' },
  { id: 'unreachable', when: { lineType: ['mobile', 'nonFixedVoip', 'unknown'], lineStatus: ['unreachable'] }, then: 'Likely Voicemail', why: 'handset off or out of coverage: calls go to voicemail' },
  { id: 'screening', when: { lineType: ['mobile', 'nonFixedVoip'], callScreening: true }, then: 'Likely Call Screening', why: 'the carrier or handset screens unknown callers' },
  { id: 'app-voip', when: { lineType: ['nonFixedVoip'] }, then: 'Likely Call Screening', why: 'app-based numbers mostly screen or forward' },
  { id: 'mobile', when: { lineType: ['mobile'] }, then: 'Likely Answer', why: 'an active mobile line with no screening signal' },
  { id: 'no-signal', when: {}, then: 'Unknown', why: 'nothing known about the line' },
];

export function matches(rule: Rule, s: Signals): boolean {
  const w = rule.when;
  if (w.lineType && !w.lineType.includes(s.lineType)) return false;
  if (w.lineStatus && (s.lineStatus === null || !w.lineStatus.includes(s.lineStatus))) return false;
  if (w.callScreening !== undefined && s.callScreening !== w.callScreening) return false;
  return true;
}

export function answerIntentOf(signals: Signals): { intent: AnswerIntent; rule: string } {
  const rule = ANSWER_INTENT_RULES.find((r) => matches(r, signals))!;
  return { intent: rule.then, rule: rule.id };
}
