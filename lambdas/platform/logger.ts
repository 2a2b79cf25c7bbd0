import { AsyncLocalStorage } from 'node:async_hooks';
import { config, invocationTraceHeader } from './config';

// One structured JSON logger for every handler: a line of JSON per entry, INFO and below on stdout,
// WARN and above on stderr. The lines are those the Powertools logger printed before it (level,
// message, timestamp, service, sampling_rate, xray_trace_id, then the entry's keys; an error as
// name, location, message, stack and cause; keys whose value is empty left out), and it reads the
// same settings: POWERTOOLS_SERVICE_NAME, POWERTOOLS_LOG_LEVEL (or LOG_LEVEL), and Lambda's
// Advanced Logging Controls level (AWS_LAMBDA_LOG_LEVEL) over both. Written here because every
// function loaded that library (about 21 KB and 13 M instructions) at each cold start for this
// much of it (docs/performance.md, "Cold imports, fourteenth step").

export type LogLevel = 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'CRITICAL' | 'SILENT';
type Severity = Exclude<LogLevel, 'SILENT'>;

const THRESHOLD: Record<LogLevel, number> = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 };

/** Keys a line sets itself: an entry's keys of these names are dropped, as Powertools dropped them. */
const RESERVED = new Set(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id', 'cold_start', 'function_arn', 'function_memory_size', 'function_name', 'function_request_id', 'tenant_id']);

const levelOf = (value: string | undefined): LogLevel | undefined => {
  const upper = value?.trim().toUpperCase();
  // Lambda's Advanced Logging Controls call the highest level FATAL.
  const level = upper === 'FATAL' ? 'CRITICAL' : upper;
  return level && Object.hasOwn(THRESHOLD, level) ? (level as LogLevel) : undefined;
};

/** Lambda's Advanced Logging Controls, when the function has them: they filter the lines anyway. */
const settings = config();
const alcLevel = levelOf(settings.AWS_LAMBDA_LOG_LEVEL);
let threshold = THRESHOLD[alcLevel ?? levelOf(settings.POWERTOOLS_LOG_LEVEL ?? settings.LOG_LEVEL) ?? 'INFO'];
const service = settings.POWERTOOLS_SERVICE_NAME;

// Keys appended during a request (request id, route, organization) belong to that request. One
// shared set would mix them up as soon as requests overlap, which they do locally (one process
// serves them all) and in any concurrent invocation: each request, job run or workflow step runs
// in its own log context, holding its own keys.
const contexts = new AsyncLocalStorage<Record<string, unknown>>();
const outside: Record<string, unknown> = {};
const keysOf = (): Record<string, unknown> => contexts.getStore() ?? outside;

let toStderr = false;

/**
 * Every log line from now on goes to stderr, whatever its level: for a command-line program whose
 * stdout is its answer (the admin CLI prints JSON alone there, for `| node -pe 'JSON.parse(…)'`).
 * Lambdas and the local server never call it: their lines stay on stdout, where Lambda and
 * `npm start` expect them.
 */
export function sendLogsToStderr(): void {
  toStderr = true;
}

/** Runs `fn` in a log context of its own: keys appended inside stay inside, and start empty. */
export function withLogContext<T>(fn: () => T): T {
  return contexts.run({}, fn);
}

/** The first `(file:line:column)` of an error's stack, as `file:line`. */
function locationOf(stack: string | undefined): string {
  for (const line of stack?.split('\n') ?? []) {
    const match = /\(([^()]*?):(\d+?):(\d+?)\)\\?$/.exec(line);
    if (match) return `${match[1]}:${Number(match[2])}`;
  }
  return '';
}

function errorFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = { name: error.name, location: locationOf(error.stack), message: error.message, stack: error.stack, cause: error.cause instanceof Error ? errorFields(error.cause) : error.cause };
  for (const key of Object.keys(error)) if (key !== 'name' && key !== 'message' && key !== 'stack' && key !== 'cause') fields[key] = (error as unknown as Record<string, unknown>)[key];
  return fields;
}

/** Errors as their fields, bigints as text, and a value met again inside itself left out. */
function replacer(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    const replaced = value instanceof Error ? errorFields(value) : value;
    if (typeof replaced === 'bigint') return replaced.toString();
    if (typeof replaced === 'object' && replaced !== null) {
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(replaced)) return undefined;
      ancestors.push(replaced);
    }
    return replaced;
  };
}

/** The X-Ray trace of the invocation under way (Lambda sets it per invocation), if any. */
function traceId(): string | undefined {
  const header = invocationTraceHeader();
  return header ? /Root=([^;]+)/.exec(header)?.[1] ?? header.split(';')[0] : undefined;
}

function write(level: Severity, message: string, extra: Record<string, unknown> | undefined): void {
  if (THRESHOLD[level] < threshold) return;
  const line: Record<string, unknown> = { level, message, timestamp: new Date().toISOString(), service, sampling_rate: 0, xray_trace_id: traceId() };
  for (const source of [keysOf(), extra]) {
    if (!source) continue;
    for (const key of Object.keys(source)) if (!RESERVED.has(key)) line[key] = source[key];
  }
  for (const key of Object.keys(line)) if (line[key] === undefined || line[key] === '' || line[key] === null) delete line[key];
  const text = `${JSON.stringify(line, replacer())}\n`;
  (toStderr || THRESHOLD[level] >= THRESHOLD.WARN ? process.stderr : process.stdout).write(text);
}

/** The logger of the current context (the keys appended outside any context when there is none). */
export const logger = {
  debug: (message: string, extra?: Record<string, unknown>) => write('DEBUG', message, extra),
  info: (message: string, extra?: Record<string, unknown>) => write('INFO', message, extra),
  warn: (message: string, extra?: Record<string, unknown>) => write('WARN', message, extra),
  error: (message: string, extra?: Record<string, unknown>) => write('ERROR', message, extra),
  appendKeys: (keys: Record<string, unknown>) => {
    const into = keysOf();
    for (const key of Object.keys(keys)) if (!RESERVED.has(key)) into[key] = keys[key];
  },
  resetKeys: () => {
    const keys = keysOf();
    for (const key of Object.keys(keys)) delete keys[key];
  },
  /** Changes the level of every context; Lambda's Advanced Logging Controls, when set, keep theirs. */
  setLogLevel: (level: LogLevel) => {
    if (!alcLevel) threshold = THRESHOLD[level];
  },
};
