import { StateMachine } from 'aws-local-stepfunctions';

type RunOptions = NonNullable<Parameters<StateMachine['run']>[1]>;
type Overrides = NonNullable<RunOptions['overrides']>;
type LocalHandlers = NonNullable<Overrides['taskResourceLocalHandlers']>;
export type TaskHandler = (input: unknown) => Promise<unknown>;

interface AslState {
  Type: string;
  TimeoutSeconds?: number;
  TimeoutSecondsPath?: string;
  Iterator?: { States: Record<string, AslState> };
  ItemProcessor?: { States: Record<string, AslState> };
  Branches?: { States: Record<string, AslState> }[];
}
export interface AslDefinition {
  States: Record<string, AslState>;
  [key: string]: unknown;
}

/** Every Task state, nested Map and Parallel states included, by name. */
export function taskStates(definition: { States: Record<string, AslState> }): Record<string, AslState> {
  const out: Record<string, AslState> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (state.Type === 'Task') out[name] = state;
    const nested = [state.ItemProcessor, state.Iterator, ...(state.Branches ?? [])].filter((s) => s !== undefined);
    for (const inner of nested) Object.assign(out, taskStates(inner));
  }
  return out;
}

/**
 * aws-local-stepfunctions gives a Task without TimeoutSeconds a 60 s limit that Step Functions
 * does not have (there, no timeout means none). So every Task must say how long it may take, and
 * the local run then applies exactly that.
 */
export function assertDeclaredTimeouts(definition: AslDefinition): void {
  const missing = Object.entries(taskStates(definition))
    .filter(([, s]) => !(Number.isInteger(s.TimeoutSeconds) && s.TimeoutSeconds! >= 1) || s.TimeoutSecondsPath !== undefined)
    .map(([name]) => name);
  if (missing.length) throw new Error(`Every Task state must declare TimeoutSeconds (an integer >= 1): ${missing.join(', ')}`);
}

/**
 * The attempts of one execution's tasks. The library times a task out by racing it, and then
 * retries it while the first attempt is still running; here a retry of a step (same state, same
 * input) waits until the earlier attempt has finished, and an `exclusive` state (the failure
 * handler) waits for every attempt of the execution. The waiting counts against the new attempt's
 * own timeout, so a step that never finishes still ends in States.Timeout and the Catch.
 */
class AttemptGuard {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly exclusive: ReadonlySet<string>,
    private readonly onRequested?: (state: string, waiting: boolean) => void,
  ) {}

  wrap(state: string, handler: TaskHandler): TaskHandler {
    return async (input) => {
      const key = `${state}\u0000${JSON.stringify(input)}`;
      const before = this.exclusive.has(state) ? [...this.inFlight.values()] : [this.inFlight.get(key)].filter((p) => p !== undefined);
      this.onRequested?.(state, before.length > 0);
      const attempt = Promise.allSettled(before).then(() => handler(input));
      const settled = attempt.then(
        () => undefined,
        () => undefined,
      );
      this.inFlight.set(key, settled);
      void settled.then(() => {
        if (this.inFlight.get(key) === settled) this.inFlight.delete(key);
      });
      return attempt;
    };
  }

  /** Resolves once no attempt is running, late ones included. */
  async drained(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight.values()]);
  }
}

/** How a definition is validated (asl-validator, through the library): its JSONPaths and its ARNs too. */
export const DEFINITION_CHECKS = { checkPaths: true, checkArn: true } as const;

export interface WorkflowRunnerOptions {
  definition: AslDefinition;
  handlers: Record<string, TaskHandler>;
  /** Executions that run at once; the rest wait in order. */
  concurrency: number;
  /** States that wait for every other attempt of their execution (the failure handler). */
  exclusiveStates?: string[];
  /** Milliseconds between retries (instead of the ASL's IntervalSeconds), for every Task. */
  retryIntervalMs?: number;
  onError?: (id: string, error: unknown) => void;
  /** The library asked for an attempt of `state`; `waiting` when it must wait for earlier ones. */
  onAttemptRequested?: (id: string, state: string, waiting: boolean) => void;
  /**
   * How long an ended execution's late attempts may keep its slot (default: the longest Task
   * timeout). The id stays taken until they end.
   */
  lingerMs?: number;
  /**
   * The definition was checked before (the shipped one is, by a test with the same validator and
   * options: test/unit/platform/upload-workflow-definition.test.ts), so it is not validated again
   * here. The library validates with asl-validator, whose JSON Schema validators ajv compiles into
   * code the process then keeps: about 15 MB more resident for the whole life of `npm start`'s
   * process (docs/performance.md, "The local process's memory, eleventh round").
   */
  checked?: boolean;
  /** An ended execution's late attempts outlived lingerMs; its slot was handed on. */
  onLingering?: (id: string) => void;
}

/**
 * Runs executions of one state machine in this process: at most `concurrency` at once, and at
 * most one per id (like Step Functions with the id as execution name); an id started while queued
 * or running is not started again. An id stays taken until the last task attempt of its execution
 * has finished, timed-out attempts included. Such a late attempt keeps its execution's slot for at
 * most `lingerMs`; after that the slot goes to the next execution (so a step that never ends
 * cannot stall every upload) while the id stays taken.
 */
export class WorkflowRunner {
  private readonly queue: { id: string; input: unknown }[] = [];
  /** Ids with an execution or late attempts still running. */
  private readonly active = new Map<string, Promise<void>>();
  private slotsInUse = 0;
  private readonly idle = new Set<() => void>();
  private stopped = false;
  private readonly machine: StateMachine;
  private readonly lingerMs: number;

  constructor(private readonly options: WorkflowRunnerOptions) {
    assertDeclaredTimeouts(options.definition);
    if (!(options.concurrency >= 1)) throw new Error(`Workflow concurrency must be at least 1; got ${options.concurrency}`);
    this.machine = new StateMachine(options.definition as never, { validationOptions: options.checked ? { noValidate: true } : DEFINITION_CHECKS });
    this.lingerMs = options.lingerMs ?? Math.max(...Object.values(taskStates(options.definition)).map((t) => t.TimeoutSeconds!)) * 1000;
  }

  /** Queues an execution for `id` unless one is queued or running. */
  start(id: string, input: unknown): void {
    if (this.stopped || this.active.has(id) || this.queue.some((q) => q.id === id)) return;
    this.queue.push({ id, input });
    this.pump();
  }

  get pending(): { queued: number; running: number } {
    return { queued: this.queue.length, running: this.active.size };
  }

  /** Resolves when nothing is queued or running, late attempts included. */
  settle(): Promise<void> {
    if (!this.queue.length && !this.active.size) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  /** Drops what has not started (it stays for the next start's recovery) and waits for the rest. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.settle();
  }

  private pump(): void {
    while (this.slotsInUse < this.options.concurrency && this.queue.length) {
      const { id, input } = this.queue.shift()!;
      this.slotsInUse++;
      let slotHeld = true;
      const freeSlot = () => {
        if (!slotHeld) return;
        slotHeld = false;
        this.slotsInUse--;
        this.pump();
      };
      const run = this.execute(id, input, freeSlot).finally(() => {
        this.active.delete(id);
        freeSlot();
        this.pump();
      });
      this.active.set(id, run);
    }
    if (!this.queue.length && !this.active.size) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
  }

  private async execute(id: string, input: unknown, freeSlot: () => void): Promise<void> {
    const onRequested = this.options.onAttemptRequested;
    const guard = new AttemptGuard(new Set(this.options.exclusiveStates ?? []), onRequested && ((state, waiting) => onRequested(id, state, waiting)));
    const handlers = Object.fromEntries(Object.entries(this.options.handlers).map(([state, handler]) => [state, guard.wrap(state, handler)]));
    const interval = this.options.retryIntervalMs;
    const retryIntervalOverrides = interval === undefined ? undefined : Object.fromEntries(Object.keys(taskStates(this.options.definition)).map((s) => [s, interval]));
    try {
      await this.machine.run(input as never, { overrides: { taskResourceLocalHandlers: handlers as LocalHandlers, retryIntervalOverrides } }).result;
    } catch (error) {
      this.options.onError?.(id, error);
    }
    const drained = guard.drained();
    let timer: NodeJS.Timeout | undefined;
    const lingering = await Promise.race([drained.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.lingerMs)))]);
    clearTimeout(timer);
    if (lingering) {
      this.options.onLingering?.(id);
      freeSlot();
      await drained;
    }
  }
}
