import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { synthStack } from '../support/stack';
import { taskStates } from '../../local/workflow-runner';

describe('upload workflow task timeouts', () => {
  const { template } = synthStack();
  const tasks = taskStates(JSON.parse(readFileSync('statemachines/upload-processing.asl.json', 'utf8')));
  const functionsByState: Record<string, RegExp> = {
    Prepare: /^Uploads: mark processing/,
    ClassifyChunk: /^Uploads: classify one chunk/,
    Finalize: /^Uploads: summary/,
    MarkFailed: /^Uploads: failed, refund/,
    NotifyPool: /^Contacts: pooled contacts get their outcome/,
  };

  it('every Task declares TimeoutSeconds', () => {
    expect(Object.keys(tasks).sort()).toEqual(Object.keys(functionsByState).sort());
    for (const [name, state] of Object.entries(tasks)) expect(state.TimeoutSeconds, name).toBeGreaterThanOrEqual(1);
  });

  it("each step function may run exactly as long as its Task allows", () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    for (const [state, description] of Object.entries(functionsByState)) {
      const fn = functions.filter((f) => description.test(String(f.Properties.Description)));
      expect(fn, state).toHaveLength(1);
      expect(fn[0]!.Properties.Timeout, state).toBe(tasks[state]!.TimeoutSeconds);
    }
  });
});
