import { describe, expect, it } from 'vitest';
import { draftOutcome } from '../../../lambdas/console/web-upload-recovery';

// What recovery makes of a draft a dead request left in a passing state (docs/reliability.md).
describe('draftOutcome', () => {
  it('a draft left validating is mapped again, whatever exists under its id', () => {
    expect(draftOutcome('validating', null)).toBe('remapped');
    expect(draftOutcome('validating', { status: 'completed' })).toBe('remapped');
  });
  it('a draft left confirming without an upload goes back to awaiting confirmation (nothing was charged)', () => {
    expect(draftOutcome('confirming', null)).toBe('reopened');
  });
  it('a draft left confirming whose upload is visible became that upload, in any of its states', () => {
    for (const status of ['ready_for_processing', 'processing', 'completed', 'failed']) expect(draftOutcome('confirming', { status })).toBe('confirmed');
  });
  it('a draft whose upload is still charging waits for upload recovery to decide', () => {
    expect(draftOutcome('confirming', { status: 'charging' })).toBe('waiting');
  });
});
