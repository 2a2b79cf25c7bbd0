/**
 * Readiness: each dependency the API cannot answer without is asked one cheap question, all at
 * once, each bounded by a timeout. The answer names every dependency with its outcome; an error is
 * reported by its name or code only (`ResourceNotFoundException`, `ECONNREFUSED`, `timeout`): the
 * probe needs no authentication, so it shows nothing internal (the log line has the message).
 */
export type DependencyName = 'table' | 'file_store';

export interface DependencyCheck {
  name: DependencyName;
  /** Resolves when the dependency answered; throws otherwise. */
  ask: (signal: AbortSignal) => Promise<void>;
}

export type CheckOutcome = { status: 'ok'; ms: number } | { status: 'failed'; ms: number; error: string };

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckOutcome>;
}

export async function checkReadiness(checks: readonly DependencyCheck[], timeoutMs: number, onFailure?: (name: DependencyName, error: unknown) => void): Promise<Readiness> {
  const outcomes = await Promise.all(checks.map(async (check) => [check.name, await run(check, timeoutMs, onFailure)] as const));
  return { ready: outcomes.every(([, outcome]) => outcome.status === 'ok'), checks: Object.fromEntries(outcomes) };
}

async function run(check: DependencyCheck, timeoutMs: number, onFailure?: (name: DependencyName, error: unknown) => void): Promise<CheckOutcome> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'timeout' }));
    }, timeoutMs);
  });
  try {
    await Promise.race([check.ask(controller.signal), timeout]);
    return { status: 'ok', ms: Date.now() - started };
  } catch (error) {
    onFailure?.(check.name, error);
    return { status: 'failed', ms: Date.now() - started, error: errorName(error) };
  } finally {
    clearTimeout(timer);
  }
}

function errorName(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && code) return code;
    if (typeof name === 'string' && name && name !== 'Error') return name;
  }
  return 'error';
}

/** 200 with every check, or 503 in the error envelope naming the dependencies that failed. */
export function readinessAnswer(readiness: Readiness): { status: 200 | 503; body: unknown } {
  if (readiness.ready) return { status: 200, body: { status: 'ready', checks: readiness.checks } };
  const failed = Object.entries(readiness.checks)
    .filter(([, outcome]) => outcome.status === 'failed')
    .map(([name, outcome]) => `${name} (${(outcome as { error: string }).error})`);
  return {
    status: 503,
    body: { detail: { error: 'not_ready', message: `Not ready: no answer from ${failed.join(', ')}`, checks: readiness.checks } },
  };
}
