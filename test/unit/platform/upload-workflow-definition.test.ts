import { StateMachine } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import { uploadWorkflowDefinition } from '../../../local/workflow';
import { DEFINITION_CHECKS } from '../../../local/workflow-runner';

// `npm start`'s workflow runner takes the shipped definition as checked (local/workflow.ts), so its
// validation is here: the same validator (asl-validator, through aws-local-stepfunctions) with the
// same checks the runner applies to any other definition.

describe('the upload workflow definition (statemachines/upload-processing.asl.json)', () => {
  it('is valid ASL, JSONPaths and ARNs included, as the local runtime runs it', () => {
    expect(() => new StateMachine(uploadWorkflowDefinition() as never, { validationOptions: DEFINITION_CHECKS })).not.toThrow();
  });

  it('would be refused if it were not: the check can fail', () => {
    const broken = structuredClone(uploadWorkflowDefinition()) as unknown as { StartAt: string; States: Record<string, { Next?: string; InputPath?: string }> };
    expect(() => new StateMachine({ ...broken, StartAt: 'NoSuchState' } as never, { validationOptions: DEFINITION_CHECKS })).toThrow();
    const first = broken.States[broken.StartAt]!;
    first.InputPath = '$..[bad';
    expect(() => new StateMachine(broken as never, { validationOptions: DEFINITION_CHECKS })).toThrow();
  });
});
