import { describe, expect, it } from 'vitest';
import { assertDeclaredTimeouts, WorkflowRunner, type AslDefinition, type TaskHandler } from '../../../local/workflow-runner';
import { waitFor } from '../../support/wait';

const ARN = 'arn:aws:lambda:us-east-1:000000000000:function:local-';

/** Step, retried on States.Timeout, caught into Failed. */
function definition(timeoutSeconds: number | undefined): AslDefinition {
  return {
    StartAt: 'Step',
    States: {
      Step: {
        Type: 'Task',
        Resource: `${ARN}Step`,
        ...(timeoutSeconds === undefined ? {} : { TimeoutSeconds: timeoutSeconds }),
        Retry: [{ ErrorEquals: ['States.Timeout'], IntervalSeconds: 1, MaxAttempts: 3 }],
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Failed' }],
        End: true,
      },
      Failed: { Type: 'Task', Resource: `${ARN}Failed`, TimeoutSeconds: 5, End: true },
    },
  } as unknown as AslDefinition;
}

/** A promise the test settles by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Counts concurrent and total calls of a task, per id. */
function tracked(body: (input: { id: string }, call: number) => Promise<unknown>) {
  const calls: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const runningById = new Map<string, number>();
  let maxById = 0;
  const handler: TaskHandler = async (raw) => {
    const input = raw as { id: string };
    calls.push(input.id);
    running++;
    maxRunning = Math.max(maxRunning, running);
    runningById.set(input.id, (runningById.get(input.id) ?? 0) + 1);
    maxById = Math.max(maxById, runningById.get(input.id)!);
    try {
      return await body(input, calls.length);
    } finally {
      running--;
      runningById.set(input.id, runningById.get(input.id)! - 1);
    }
  };
  return { handler, calls, stats: () => ({ maxRunning, maxById }) };
}

describe('local workflow runner', () => {
  it('refuses a definition whose Task does not declare TimeoutSeconds (the library would apply 60 s)', () => {
    expect(() => assertDeclaredTimeouts(definition(undefined))).toThrow(/Step/);
    expect(() => new WorkflowRunner({ definition: definition(undefined), handlers: {}, concurrency: 1 })).toThrow(/TimeoutSeconds/);
    expect(() => assertDeclaredTimeouts(definition(1))).not.toThrow();
  });

  it('times a step out at its declared TimeoutSeconds, and the retry waits for the timed-out attempt to finish', async () => {
    const firstAttempt = gate();
    const secondRequested = gate();
    const requests: boolean[] = [];
    const step = tracked(async (_input, call) => {
      if (call === 1) await firstAttempt.opened; // runs past the 1 s timeout until released
      return { done: call };
    });
    const failed = tracked(async () => 'failed');
    const handlers: Record<string, TaskHandler> = { Step: step.handler, Failed: failed.handler };
    const onAttemptRequested = (_id: string, state: string, waiting: boolean) => {
      if (state !== 'Step') return;
      requests.push(waiting);
      if (requests.length === 2) secondRequested.open();
    };
    const runner = new WorkflowRunner({ definition: definition(1), handlers, concurrency: 1, retryIntervalMs: 0, onAttemptRequested });
    runner.start('u1', { id: 'u1' });
    // The library retried after the declared 1 s timeout...
    await secondRequested.opened;
    // ...but the retry has not run the step again while the first attempt is still running.
    expect(requests).toEqual([false, true]);
    expect(step.calls).toEqual(['u1']);
    firstAttempt.open();
    await runner.settle();
    expect(step.calls).toEqual(['u1', 'u1']);
    expect(step.stats().maxById).toBe(1);
    expect(failed.calls).toEqual([]);
  });

  it('a step that never finishes ends in the Catch, and the failure handler runs only after it has stopped', async () => {
    const stuck = gate();
    let stepRunning = false;
    let failedSawStepRunning: boolean | null = null;
    const handlers: Record<string, TaskHandler> = {
      Step: async () => {
        stepRunning = true;
        await stuck.opened;
        stepRunning = false;
        return {};
      },
      Failed: async () => {
        failedSawStepRunning = stepRunning;
        return 'failed';
      },
    };
    const runner = new WorkflowRunner({ definition: definition(1), handlers, concurrency: 1, retryIntervalMs: 0, exclusiveStates: ['Failed'] });
    runner.start('u1', { id: 'u1' });
    let settled = false;
    const done = runner.settle().then(() => (settled = true));
    // Every attempt times out (each waits for the stuck one); the execution must still not end
    // while the stuck attempt runs.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(settled).toBe(false);
    stuck.open();
    await done;
    expect(failedSawStepRunning).toBe(false);
  });

  it('runs at most `concurrency` executions at once and one per id, queueing the rest', async () => {
    const release = gate();
    const step = tracked(async () => {
      await release.opened;
      return {};
    });
    const runner = new WorkflowRunner({ definition: definition(30), handlers: { Step: step.handler, Failed: async () => null }, concurrency: 2, retryIntervalMs: 0 });
    for (const id of ['a', 'b', 'c', 'a', 'd', 'b']) runner.start(id, { id });
    await waitFor('two executions running', () => (step.calls.length >= 2 ? true : null), 30_000, 10);
    expect(runner.pending).toEqual({ queued: 2, running: 2 });
    expect(step.calls.sort()).toEqual(['a', 'b']);
    release.open();
    await runner.settle();
    expect(step.calls.sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(step.stats().maxRunning).toBe(2);
    expect(step.stats().maxById).toBe(1);
  });
});

describe('local workflow runner: a step that never ends', () => {
  it('hands its slot on after lingerMs but keeps its id taken until the step ends', async () => {
    const stuck = gate();
    const calls: string[] = [];
    const handlers: Record<string, TaskHandler> = {
      Step: async (raw) => {
        const { id } = raw as { id: string };
        calls.push(id);
        if (id === 'hung') await stuck.opened;
        return {};
      },
      Failed: async () => null,
    };
    // One slot. The hung execution's attempts all time out (each retry waits for the hung one),
    // the Catch runs Failed, the execution ends, and its hung attempt lingers.
    const lingered: string[] = [];
    const runner = new WorkflowRunner({ definition: definition(1), handlers, concurrency: 1, retryIntervalMs: 0, lingerMs: 200, onLingering: (id) => lingered.push(id) });
    runner.start('hung', { id: 'hung' });
    runner.start('next', { id: 'next' });
    await waitFor('the next execution started', () => (calls.includes('next') ? true : null), 30_000, 20);
    expect(lingered).toEqual(['hung']);
    // The hung upload cannot be started again while its step still runs.
    runner.start('hung', { id: 'hung' });
    expect(calls.filter((c) => c === 'hung')).toEqual(['hung']);
    stuck.open();
    await runner.settle();
    expect(runner.pending).toEqual({ queued: 0, running: 0 });
  });
});
