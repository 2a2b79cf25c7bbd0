import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { synthStack } from '../support/stack';
import { taskStates } from '../../local/workflow-runner';
import { parseConfig, UPLOAD_WORKFLOW_TIMEOUT_HOURS } from '../../lambdas/platform/config';

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

  it('recovery gives up on a processing upload only after its execution has timed out (no lookup bought after the refund)', () => {
    // CDK's `timeout` is ignored for a definition from a file: the limit is the ASL's own.
    const definition = JSON.parse(readFileSync('statemachines/upload-processing.asl.json', 'utf8')) as { TimeoutSeconds?: number };
    expect(definition.TimeoutSeconds).toBe(UPLOAD_WORKFLOW_TIMEOUT_HOURS * 3600);
    const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(machine!.Properties.DefinitionS3Location).toBeDefined(); // the file as it is, deployed
    // Prepare sets the processing bound and recovery renews it: no function overrides the default.
    for (const f of Object.values(template.findResources('AWS::Lambda::Function'))) expect(f.Properties.Environment?.Variables?.UPLOAD_PROCESSING_BOUND_MS).toBeUndefined();
    expect(parseConfig({}).UPLOAD_PROCESSING_BOUND_MS).toBeGreaterThan(definition.TimeoutSeconds! * 1000);
  });
});
