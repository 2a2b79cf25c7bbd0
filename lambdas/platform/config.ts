// The service's configuration: one table of settings over the environment, parsed once per
// container (a Lambda's, or the local runtime's process). Nothing else in lambdas/ reads
// process.env. The CDK stack sets these on each function; the local runtime and the admin CLI add
// their own settings (configureRoot) without writing the environment. A bad value stops the
// container at first use with the variable's name, what it accepts and what it got.
//
// Plain functions, not a zod schema: every cold start of every function parses this, once, before
// its first request, and as a zod object of 77 settings it was about 22 M instructions of a cold
// import (building its parts, then zod's first parse), ~6% of a DynamoDB-only function's whole
// import, where this table costs about 4 M (docs/performance.md, "Cold imports, ninth step").
// Request bodies are still zod's (lambdas/platform/zod.ts).

/** Why a setting's text was refused: what the setting accepts. */
class Refused extends Error {}

/** One setting: its text (undefined when unset or empty) to its value, or Refused. */
type Setting<T> = (text: string | undefined) => T;

/** Any text, or `fallback` when unset (without one, undefined). */
function text(): Setting<string | undefined>;
function text(fallback: string): Setting<string>;
function text(fallback?: string): Setting<string | undefined> {
  return (value) => value ?? fallback;
}

// Only the exact word `true` turns a switch on (as before this module): a typo leaves it off.
const flag = (): Setting<boolean> => (value) => value === 'true';

/** A number as JavaScript reads a numeral (`Number`: surrounding blanks ignored, `1e3`, `0x10`). */
function numeral(value: string, accepts: string, ok: (n: number) => boolean): number {
  const n = Number(value);
  if (!ok(n)) throw new Refused(accepts);
  return n;
}

/** A whole number, 0 or more. */
const int = (fallback: number): Setting<number> => (value) =>
  value === undefined ? fallback : numeral(value, 'a whole number, 0 or more', (n) => Number.isSafeInteger(n) && n >= 0);

/** A whole number from 0 to `max`. */
const intUpTo = (fallback: number, max: number): Setting<number> => (value) =>
  value === undefined ? fallback : numeral(value, `a whole number from 0 to ${max}`, (n) => Number.isSafeInteger(n) && n >= 0 && n <= max);

/** A count or a rate that 0 would break (no worker, no token, no try): a whole number, 1 or more. */
const positive = (fallback: number): Setting<number> => (value) =>
  value === undefined ? fallback : numeral(value, 'a whole number, 1 or more', (n) => Number.isSafeInteger(n) && n >= 1);

/** A share: a number from 0 to 1. */
const share = (fallback: number): Setting<number> => (value) =>
  value === undefined ? fallback : numeral(value, 'a number from 0 to 1', (n) => n >= 0 && n <= 1);

/** One of `values`, or `fallback` when unset (without one, undefined). */
function oneOf<const V extends string>(values: readonly V[]): Setting<V | undefined>;
function oneOf<const V extends string>(values: readonly V[], fallback: V): Setting<V>;
function oneOf<const V extends string>(values: readonly V[], fallback?: V): Setting<V | undefined> {
  return (value) => {
    if (value === undefined) return fallback;
    if (!(values as readonly string[]).includes(value)) throw new Refused(`one of ${values.join(', ')}`);
    return value as V;
  };
}

/** An http(s) URL, or `fallback` when unset. */
const url = (fallback: string): Setting<string> => (value) => {
  if (value === undefined) return fallback;
  let protocol = '';
  try {
    protocol = new URL(value).protocol;
  } catch {
    // not a URL at all: refused below
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new Refused('an http or https URL');
  return value;
};

/** Every setting the service reads, by its variable's name. */
/**
 * How long an upload's Step Functions execution may run (lib/uploads-construct.ts sets it). Uploads
 * queued behind one provider's rate take their turns: four of 250,000 numbers at 50 lookups a
 * second take 5.6 hours (docs/cost.md), so the limit leaves room for several such queues.
 */
export const UPLOAD_WORKFLOW_TIMEOUT_HOURS = 24;

/**
 * Past the execution's own limit, with a margin: recovery fails and refunds an upload still
 * processing only once no execution can be buying lookups for it any more.
 */
const PROCESSING_BOUND_DEFAULT_MS = (UPLOAD_WORKFLOW_TIMEOUT_HOURS * 60 + 30) * 60_000;

export const SETTINGS = {
  DEPLOYMENT: oneOf(['aws', 'local']),
  /** The deployment stage (the CDK stack sets it): the Stage dimension of the service's own metrics, so stages in one account never share one. */
  STAGE: text('local'),
  AWS_LAMBDA_FUNCTION_NAME: text(),
  TABLE_NAME: text(),
  /** The console's Cognito user pool (AWS): where an owner's invitation creates the member's user. */
  CONSOLE_USER_POOL_ID: text(),
  FILES_BUCKET: text(),
  SCREENSHOTS_BUCKET: text(),
  S3_FORCE_PATH_STYLE: flag(),
  S3_LINK_ENDPOINT: text(),
  UPLOAD_STATE_MACHINE_ARN: text(),
  UPLOAD_CHUNK_SIZE: int(5_000),
  UPLOAD_PROCESSING_BOUND_MS: int(PROCESSING_BOUND_DEFAULT_MS),
  /** Days the files bucket keeps uploads' files (the stack's `retention.uploadsDays`); 0, the local default: kept for good. */
  UPLOADS_RETENTION_DAYS: int(0),
  MAX_JSON_BODY_BYTES: int(50 * 1024 * 1024),
  CONTACT_MAX_QUEUE_AGE_MS: int(7 * 86_400_000),
  CONTACT_POOL_BATCH_PER_SHARD: int(2_000),
  RATE_LIMIT_PER_KEY: int(600),
  RATE_LIMIT_PER_ORG: int(1_500),
  CURSOR_SECRET: text(),
  CURSOR_SECRET_ARN: text(),
  DOWNLOADS_SIGNING_PRIVATE_KEY: text(),
  DOWNLOADS_SIGNING_KEY_SECRET_ARN: text(),
  DOWNLOADS_CLOUDFRONT_DOMAIN: text(),
  DOWNLOADS_CLOUDFRONT_KEY_ID: text(),
  /** Every public key of the stack's key group: `<key id>=<fingerprint>,…` (cloudfront-key-ids.ts); wins over DOWNLOADS_CLOUDFRONT_KEY_ID. */
  DOWNLOADS_CLOUDFRONT_KEY_IDS: text(),
  WEBHOOK_QUEUE_URL: text(),
  /** The customer-managed KMS key that seals webhook and callback signing secrets (AWS only). */
  SECRETS_KMS_KEY_ARN: text(),
  /** How long one delivery attempt is held before another worker may retry it (a dead worker's lapses). */
  WEBHOOK_ATTEMPT_LEASE_MS: int(60_000),
  WEBHOOKS_ALLOW_LOOPBACK: flag(),
  CLASSIFICATION_PROVIDER: oneOf(['offline', 'simulator', 'twilio', 'telnyx', 'trestle'], 'simulator'),
  /**
   * Steps before the provider, comma-separated, ending with `paid` (the provider):
   * `offline-ranges,paid` answers toll-free, premium and other range-decided numbers for free
   * (lambdas/classification/chain-provider.ts checks the names at first use).
   */
  CLASSIFICATION_CHAIN: text('paid'),
  TWILIO_ACCOUNT_SID: text(),
  TWILIO_AUTH_TOKEN: text(),
  TWILIO_SECRET_ARN: text(),
  /** The Twilio secret as functions that charge see it: whether it was filled in, never its value. */
  TWILIO_CREDENTIALS_ARN: text(),
  /** The Telnyx / Trestle credentials secret, for the functions that only check it was filled in (never read). */
  TELNYX_CREDENTIALS_ARN: text(),
  TRESTLE_CREDENTIALS_ARN: text(),
  TWILIO_LOOKUP_BASE_URL: text(),
  TWILIO_CONCURRENCY: text(),
  TWILIO_REQUESTS_PER_SECOND: text(),
  TWILIO_TIMEOUT_MS: text(),
  TWILIO_ATTEMPTS: text(),
  /** The lookup cache in front of a paid provider (docs/classification.md, Lookup cache): `off` asks the provider every time. */
  LOOKUP_CACHE: oneOf(['on', 'off'], 'on'),
  /** How long a cached line type and carrier is served; 0: never cached. */
  LOOKUP_CACHE_LINE_TTL_DAYS: int(30),
  /** How long a cached line status (max tier) is served; 0: never cached. */
  LOOKUP_CACHE_STATUS_TTL_HOURS: int(24),
  /** How long a cached identity answer (number and name) is served; 0: never cached. */
  LOOKUP_CACHE_IDENTITY_TTL_DAYS: int(30),
  /** Identity answers reused across organizations (the operator's opt-in); otherwise each organization's own. */
  LOOKUP_CACHE_SHARE_IDENTITY: flag(),
  /**
   * How long a lookup's claim on a number it is buying lasts: others looking the number up at the
   * same time wait for its answer at most this long (0: no claims, each buys its own). At most 90:
   * a chunk keeps 120 s for lookups in flight (classify-budget.ts), and one that waited still looks up.
   */
  LOOKUP_CLAIM_SECONDS: intUpTo(60, 90),
  /**
   * Where lookups keep their claims: `table` (processes sharing the table: Lambdas, the tests'
   * chunk processes) or `process` (one process does every lookup: `npm start` sets it).
   */
  LOOKUP_CLAIMS: oneOf(['table', 'process'], 'table'),
  TELNYX_API_KEY: text(),
  /** Secrets Manager secret holding JSON {"api_key": "…"} (AWS). */
  TELNYX_SECRET_ARN: text(),
  TELNYX_LOOKUP_BASE_URL: url('https://api.telnyx.com'),
  TELNYX_CONCURRENCY: positive(10),
  TELNYX_REQUESTS_PER_SECOND: positive(50),
  TELNYX_TIMEOUT_MS: positive(10_000),
  TELNYX_ATTEMPTS: positive(4),
  TRESTLE_API_KEY: text(),
  /** Secrets Manager secret holding JSON {"api_key": "…"} (AWS). */
  TRESTLE_SECRET_ARN: text(),
  TRESTLE_BASE_URL: url('https://api.trestleiq.com'),
  TRESTLE_CONCURRENCY: positive(10),
  TRESTLE_REQUESTS_PER_SECOND: positive(50),
  TRESTLE_TIMEOUT_MS: positive(10_000),
  TRESTLE_ATTEMPTS: positive(4),
  /**
   * How long one ClassifyChunk invocation looks numbers up before it checkpoints and hands the
   * chunk back to the workflow's loop (less when the Lambda has less time left: classify-budget.ts).
   */
  CLASSIFY_TIME_BUDGET_MS: int(300_000),
  /**
   * Paid lookups one ClassifyChunk invocation has in flight at once (each recorded before its
   * worker takes another). A chunk spends its leases of the shared rate at that rate, so this
   * should be at least the rate times the provider's latency (200/s × 0.15 s = 30).
   */
  CLASSIFY_CONCURRENCY: int(32),
  /** Above this share of an upload's numbers failing their provider lookup, the upload fails (and is refunded). */
  PROVIDER_FAILURE_MAX_SHARE: share(0.1),
  CARRIER_TEST_PROVIDER: oneOf(['simulator', 'device-lab'], 'simulator'),
  DEVICE_LAB_URL: text(''),
  DEVICE_LAB_TOKEN: text(),
  DEVICE_LAB_TOKEN_SECRET_ARN: text(),
  DEVICE_LAB_POLL_INTERVAL_MS: int(5_000),
  DEVICE_LAB_MAX_POLLS: int(60),
  TELEPHONY_PROVIDER: oneOf(['aws', 'simulator']),
  SMS_VOICE_ORIGINATION_IDENTITY: text(''),
  SMS_VOICE_CONFIGURATION_SET: text(),
  SPAM_RUN_CONCURRENCY: int(4),
  /** The spam fan-out queue (AWS); without it the daily run tests its work items in-process. */
  SPAM_QUEUE_URL: text(),
  /** Tries per number-and-carrier test before it is recorded failed (a timeout or a thrown error). */
  SPAM_ITEM_ATTEMPTS: int(3),
  /** One carrier test longer than this counts as a failed attempt (a hung lab call stops only its item). */
  SPAM_TEST_TIMEOUT_MS: int(360_000),
  /** The carrier-test simulator waits this long per test, like a real call does. */
  SIMULATOR_CARRIER_TEST_DELAY_MS: int(0),
  POWERTOOLS_SERVICE_NAME: text('phone-validation'),
  /** The logs' level (lambdas/platform/logger.ts; LOG_LEVEL when unset); a name it does not know leaves INFO, as Powertools' did. */
  POWERTOOLS_LOG_LEVEL: text(),
  LOG_LEVEL: text(),
  /** Lambda's Advanced Logging Controls level, set by Lambda when the function has them: it wins over the two above. */
  AWS_LAMBDA_LOG_LEVEL: text(),
  FAULT_CRASH_AT: text(),
};

export type Config = { -readonly [K in keyof typeof SETTINGS]: ReturnType<(typeof SETTINGS)[K]> };

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration: ${issues.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment; the error names each bad variable and what it accepts. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed: Record<string, unknown> = {};
  const issues: string[] = [];
  for (const [name, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    // An empty variable counts as unset, as the shell and CloudFormation both produce them.
    const value = env[name] === '' ? undefined : env[name];
    try {
      parsed[name] = setting(value);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      issues.push(`${name}: ${error.message} (got '${value}')`);
    }
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return parsed as Config;
}

/** The environment as a composition root reads it: its defaults under the process's variables, its own settings over them. */
export interface RootSettings {
  /** Used where the environment sets nothing (the local runtime's table and bucket names). */
  readonly defaults?: Readonly<Record<string, string | undefined>>;
  /** Used whatever the environment says (the admin CLI's --table, a running instance's shared settings); undefined unsets. */
  readonly overrides?: Readonly<Record<string, string | undefined>>;
}

let current: Config | null = null;
let root: RootSettings = {};

const parseWithRoot = (): Config => parseConfig({ ...root.defaults, ...process.env, ...root.overrides });

/** The configuration of this container, parsed on first use. */
export function config(): Config {
  current ??= parseWithRoot();
  return current;
}

/**
 * For a composition root that runs elsewhere than a Lambda (the local runtime, the admin CLI):
 * its settings join the environment (which it never writes), and the configuration is parsed
 * again, once, from both.
 */
export function configureRoot(settings: RootSettings): Config {
  root = settings;
  current = parseWithRoot();
  return current;
}

/** Parses the environment again, with the root's settings (configuration tests that have just set a variable). */
export function reloadConfig(): Config {
  current = parseWithRoot();
  return current;
}

/**
 * The X-Ray trace header of the invocation under way: Lambda sets `_X_AMZN_TRACE_ID` anew for each
 * invocation, so it is read when asked, not parsed once with the settings above.
 */
export const invocationTraceHeader = (): string | undefined => process.env._X_AMZN_TRACE_ID || undefined;

/** A required setting: the name of what is missing, rather than a failure somewhere later. */
export function required<K extends keyof Config>(key: K): NonNullable<Config[K]> {
  const value = config()[key];
  if (value === undefined || value === null || value === '') throw new ConfigError([`${String(key)} is not set`]);
  return value as NonNullable<Config[K]>;
}
