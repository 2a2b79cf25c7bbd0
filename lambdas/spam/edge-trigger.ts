/**
 * spam.detected is edge-triggered per carrier: it fires when a completed test flags the number and
 * the carrier's previous completed test did not (a number never tested on that carrier counts as
 * clean). Re-tests while flagged do not fire; clean and then flagged again fires once more. Failed
 * tests say nothing about the label and leave the state alone.
 */
export function isSpamTransition(previouslyFlagged: boolean | undefined, outcome: { status: 'completed' | 'failed'; spam_detected: boolean | null }): boolean {
  return outcome.status === 'completed' && outcome.spam_detected === true && previouslyFlagged !== true;
}
