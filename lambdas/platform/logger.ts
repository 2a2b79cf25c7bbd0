import { AsyncLocalStorage } from 'node:async_hooks';
import { Console } from 'node:console';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import { config } from './config';

// One structured JSON logger for every handler; POWERTOOLS_SERVICE_NAME and POWERTOOLS_LOG_LEVEL
// configure it in both runtimes.
const base = new Logger({ serviceName: config().POWERTOOLS_SERVICE_NAME });

// Keys appended during a request (request id, route, organization) belong to that request. One
// shared logger would mix them up as soon as requests overlap, which they do locally (one process
// serves them all) and in any concurrent invocation: each request, job run or workflow step runs
// in its own log context, a child of the base logger holding its own keys.
const contexts = new AsyncLocalStorage<Logger>();

const current = (): Logger => contexts.getStore() ?? base;

let toStderr = false;

/**
 * Every log line from now on goes to stderr, whatever its level: for a command-line program whose
 * stdout is its answer (the admin CLI prints JSON alone there, for `| node -pe 'JSON.parse(…)'`).
 * Lambdas and the local server never call it: their lines stay on stdout, where Lambda and
 * `npm start` expect them.
 */
export function sendLogsToStderr(): void {
  toStderr = true;
  redirect(base);
}

// Powertools prints through its `console` (a Console on stdout and stderr, made per logger, children
// included); this one writes both streams to stderr.
function redirect(target: Logger): Logger {
  const stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });
  stderrConsole.trace = (message?: unknown, ...rest: unknown[]) => stderrConsole.log(message, ...rest);
  (target as unknown as { console: Console }).console = stderrConsole;
  return target;
}

/** Runs `fn` in a log context of its own: keys appended inside stay inside, and start empty. */
export function withLogContext<T>(fn: () => T): T {
  const child = base.createChild();
  return contexts.run(toStderr ? redirect(child) : child, fn);
}

/** The logger of the current context (the base logger outside any). */
export const logger = {
  debug: (input: LogItemMessage, ...extra: LogItemExtraInput) => current().debug(input, ...extra),
  info: (input: LogItemMessage, ...extra: LogItemExtraInput) => current().info(input, ...extra),
  warn: (input: LogItemMessage, ...extra: LogItemExtraInput) => current().warn(input, ...extra),
  error: (input: LogItemMessage, ...extra: LogItemExtraInput) => current().error(input, ...extra),
  appendKeys: (...args: Parameters<Logger['appendKeys']>) => current().appendKeys(...args),
  resetKeys: () => current().resetKeys(),
  /** Changes the level of the base logger and of contexts created afterwards. */
  setLogLevel: (...args: Parameters<Logger['setLogLevel']>) => base.setLogLevel(...args),
};
