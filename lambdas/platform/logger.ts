import { AsyncLocalStorage } from 'node:async_hooks';
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

/** Runs `fn` in a log context of its own: keys appended inside stay inside, and start empty. */
export function withLogContext<T>(fn: () => T): T {
  return contexts.run(base.createChild(), fn);
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
