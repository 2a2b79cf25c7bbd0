import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as z from '../lambdas/platform/zod';
import { RESERVED_IN_DOMAIN_PREFIX, stageNames, type StageNames } from './stage-names';

// A deployment stage's configuration, kept in the repository (config/stages/<stage>.json) and
// validated at synth: a bad field stops `cdk synth` with the file, the field and what it accepts.
// The same file gives the same template every time, so a redeploy with it changes nothing, and a
// setting cannot be lost by forgetting a `-c` flag (the provider's secret, the CloudFront distribution
// were deleted that way). docs/deploy.md.

export const StageConfigSchema = z
  .strictObject({
    /** Defaults to PhoneValidation-<stage>: several stages deploy side by side in one account. */
    stackName: z.optional(z.string().check(z.regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'letters, digits and hyphens, starting with a letter'))),
    classificationProvider: z._default(z.enum(['offline', 'simulator', 'twilio', 'telnyx', 'trestle']), 'offline'),
    /** Steps before the provider (CLASSIFICATION_CHAIN): `offline-ranges,paid` never pays for a number its range decides. */
    classificationChain: z._default(z.enum(['paid', 'offline-ranges,paid']), 'paid'),
    /** Path (relative to the repository) of the CloudFront public key PEM for signed download links. */
    downloadsPublicKeyFile: z.optional(z.string().check(z.minLength(1))),
    /**
     * A second public key in the same key group, for rotating the key pair without a link refused
     * (docs/deploy.md, Rotate secrets): whichever private key the signing secret holds signs.
     */
    downloadsSecondPublicKeyFile: z.optional(z.string().check(z.minLength(1))),
    /**
     * The console's Cognito hosted sign-in domain prefix (https://<prefix>.auth.<region>.amazoncognito.com),
     * unique across all of AWS in the region. Defaults to phone-validation-<stage>-<account>.
     */
    consoleDomainPrefix: z.optional(
      z.string().check(
        z.regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'lowercase letters, digits and hyphens, not starting or ending with a hyphen, at most 63'),
        z.refine((v) => !/aws|amazon|cognito/.test(v), 'may not contain aws, amazon or cognito (Cognito refuses them)'),
      ),
    ),
    /** CloudFormation termination protection (`cdk destroy` refused until it is turned off). Default: on for every stage but `dev`. */
    terminationProtection: z.optional(z.boolean()),
    /**
     * DynamoDB deletion protection on the table (DeleteTable refused until it is turned off).
     * Default: on for every stage but `dev`. CloudFormation cannot delete a protected table either,
     * so a failed first deploy of such a stage rolls back to ROLLBACK_FAILED (docs/deploy.md).
     */
    tableDeletionProtection: z.optional(z.boolean()),
    /** An AWS Backup plan for the table (daily, kept retentionDays) in a vault of its own. */
    backup: z.prefault(
      z.strictObject({
        enabled: z._default(z.boolean(), false),
        /** UTC hour of the daily backup. */
        hourUtc: z._default(z.number().check(z.int(), z.gte(0), z.lte(23)), 5),
        retentionDays: z._default(z.number().check(z.int(), z.gte(1), z.lte(3650)), 35),
      }),
      {},
    ),
    /** Receives every alarm (AWS mails a confirmation first). */
    alarmEmail: z.optional(z.email()),
    contactPoolMinutes: z._default(z.number().check(z.int(), z.gte(1), z.lte(60)), 5),
    /** The HTTP API stage's throttle (requests per second, steady and burst), above the per-key limits. */
    apiThrottle: z.prefault(
      z.strictObject({ rateLimit: z._default(z.number().check(z.int(), z.gte(1), z.lte(10_000)), 500), burstLimit: z._default(z.number().check(z.int(), z.gte(1), z.lte(5_000)), 1_000) }),
      {},
    ),
    /**
     * Background fan-out gets reserved concurrency (spam tests: spam.concurrency; upload chunk
     * classification: uploadClassifyConcurrency), so it can neither take the API's share nor be
     * starved. Off by default: AWS refuses a reservation that leaves less than 100 unreserved, so
     * with both reserved (30) the account's concurrency quota must be at least 130, which a new
     * account's is not; the queue's and the Map state's maximum concurrency still bound the fan-out.
     */
    reserveConcurrency: z._default(z.boolean(), false),
    uploadClassifyConcurrency: z._default(z.number().check(z.int(), z.gte(1), z.lte(1000)), 20),
    /** The lookup provider's account limits (docs/classification.md, Provider limits). */
    provider: z.prefault(
      z.strictObject({
        /** Calls per second across every concurrent chunk of every upload (one token bucket in the table). */
        requestsPerSecond: z._default(z.number().check(z.int(), z.gte(1), z.lte(10_000)), 50),
        /** Above this share of an upload's numbers failing their lookup after retries, the upload fails and is refunded. */
        maxFailedShare: z._default(z.number().check(z.gte(0), z.lte(1)), 0.1),
      }),
      {},
    ),
    /**
     * The lookup cache in front of a paid provider (docs/classification.md, Lookup cache): how long
     * each kind of answer is served, and whether identity answers are shared across organizations.
     */
    lookupCache: z.prefault(
      z.strictObject({
        enabled: z._default(z.boolean(), true),
        /** Line type and carrier; 0 never caches them. */
        lineTypeDays: z._default(z.number().check(z.int(), z.gte(0), z.lte(365)), 30),
        /** Line status (max tier); 0 never caches it. */
        lineStatusHours: z._default(z.number().check(z.int(), z.gte(0), z.lte(24 * 30)), 24),
        /** Identity (number and supplied name); 0 never caches it. */
        identityDays: z._default(z.number().check(z.int(), z.gte(0), z.lte(365)), 30),
        /** Off: each organization reuses only its own identity answers. */
        shareIdentity: z._default(z.boolean(), false),
        /**
         * How long a lookup's claim on a number it is buying lasts (0: no claims). At most 90: a chunk
         * keeps 120 s for the lookups in flight, and one that waited a claim out still looks up.
         */
        claimSeconds: z._default(z.number().check(z.int(), z.gte(0), z.lte(90)), 60),
      }),
      {},
    ),
    /** S3 lifecycle, in days (docs/operations.md, Retention). Spam screenshots: 7 days, fixed by the spec. */
    retention: z.prefault(
      z.strictObject({
        /** Everything under uploads/: originals, chunks and their results, processed files and slices. */
        uploadsDays: z._default(z.number().check(z.int(), z.gte(1), z.lte(3650)), 90),
        /** Staged large files (staging/) never turned into an upload. */
        stagingDays: z._default(z.number().check(z.int(), z.gte(1), z.lte(365)), 2),
        /** The files bucket is versioned: an overwritten or expired object's earlier version is kept this long. */
        noncurrentDays: z._default(z.number().check(z.int(), z.gte(1), z.lte(365)), 7),
      }),
      {},
    ),
    spam: z.prefault(
      z.strictObject({
        runHourUtc: z.optional(z.number().check(z.int(), z.gte(0), z.lte(23))),
        originationIdentity: z.optional(z.string().check(z.minLength(1))),
        deviceLabUrl: z.optional(z.url()),
        telephonyProvider: z.optional(z.enum(['aws', 'simulator'])),
        carrierTestProvider: z.optional(z.enum(['device-lab', 'simulator'])),
        /** Carrier tests at once (the test consumer's maximum concurrency; at least 2, an SQS event source's floor). */
        concurrency: z._default(z.number().check(z.int(), z.gte(2), z.lte(1000)), 10),
        /** Tries per number and carrier before the test is recorded failed. */
        itemAttempts: z._default(z.number().check(z.int(), z.gte(1), z.lte(10)), 3),
        /** One carrier test longer than this is a failed try (a device lab polls for up to 5 minutes). */
        testTimeoutSeconds: z._default(z.number().check(z.int(), z.gte(10), z.lte(840)), 360),
      }),
      {},
    ),
  });

export type StageConfigFile = z.infer<typeof StageConfigSchema>;

export interface StageConfig extends Omit<StageConfigFile, 'downloadsPublicKeyFile' | 'downloadsSecondPublicKeyFile' | 'consoleDomainPrefix' | 'terminationProtection' | 'tableDeletionProtection'> {
  stage: string;
  stackName: string;
  terminationProtection: boolean;
  tableDeletionProtection: boolean;
  /** Every physical name the stage's stack gives (lib/stage-names.ts). */
  names: StageNames;
  /** The PEM itself, whole (a `-c` flag keeps only its first line). */
  downloadsPublicKey?: string;
  /** The second key's PEM (downloadsSecondPublicKeyFile). */
  downloadsSecondPublicKey?: string;
}

export class StageConfigError extends Error {}

/**
 * The single settings a synth without a stage file takes as `-c key=value` (configFromContext in
 * lib/service-stack.ts: tests, one-off synths), each with the stage-file setting a deploy reads instead.
 */
export const CONTEXT_SETTINGS = {
  classificationProvider: 'classificationProvider',
  classificationChain: 'classificationChain',
  alarmEmail: 'alarmEmail',
  contactPoolMinutes: 'contactPoolMinutes',
  spamRunHourUtc: 'spam.runHourUtc',
  spamOriginationIdentity: 'spam.originationIdentity',
  spamDeviceLabUrl: 'spam.deviceLabUrl',
  spamTelephonyProvider: 'spam.telephonyProvider',
  spamCarrierTestProvider: 'spam.carrierTestProvider',
  downloadsPublicKey: 'downloadsPublicKeyFile',
} as const;

export type ContextSetting = keyof typeof CONTEXT_SETTINGS;

/**
 * bin/app.ts: a deploy takes its settings from the stage file only, so one of CONTEXT_SETTINGS given
 * as `-c` would be ignored without a word; it stops synth instead, naming the setting to use.
 */
export function refuseContextSettings(stage: string, context: (key: string) => unknown): void {
  for (const [key, setting] of Object.entries(CONTEXT_SETTINGS)) {
    if (context(key) !== undefined) {
      throw new StageConfigError(`-c ${key}: a deploy does not read this setting from context; set ${setting} in config/stages/${stage}.json instead`);
    }
  }
}

const STAGE_NAME = /^[a-z][a-z0-9-]{0,30}$/;

/** Reads and validates config/stages/<stage>.json under `root`. */
export function loadStageConfig(stage: string, root: string): StageConfig {
  if (!STAGE_NAME.test(stage)) throw new StageConfigError(`stage '${stage}': lowercase letters, digits and hyphens, starting with a letter, at most 31 characters`);
  const file = join(root, 'config', 'stages', `${stage}.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new StageConfigError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such stage file (copy config/stages/dev.json)' : (error as Error).message}`);
  }
  return parseStageConfig(stage, raw, root, file);
}

export function parseStageConfig(stage: string, raw: unknown, root: string, source = `stage ${stage}`): StageConfig {
  const parsed = StageConfigSchema.safeParse(raw);
  if (!parsed.success) {
    throw new StageConfigError(`${source}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`);
  }
  const { downloadsPublicKeyFile, downloadsSecondPublicKeyFile, consoleDomainPrefix, terminationProtection, tableDeletionProtection, ...rest } = parsed.data;
  const downloadsPublicKey = downloadsPublicKeyFile ? readPublicKey(source, 'downloadsPublicKeyFile', downloadsPublicKeyFile, root) : undefined;
  const downloadsSecondPublicKey = downloadsSecondPublicKeyFile ? readPublicKey(source, 'downloadsSecondPublicKeyFile', downloadsSecondPublicKeyFile, root) : undefined;
  if (downloadsPublicKey && downloadsPublicKey.trim() === downloadsSecondPublicKey?.trim()) {
    throw new StageConfigError(`${source}: downloadsSecondPublicKeyFile: the same key as downloadsPublicKeyFile (CloudFront refuses a key twice in one key group)`);
  }
  const stackName = rest.stackName ?? `PhoneValidation-${stage}`;
  if (!consoleDomainPrefix && RESERVED_IN_DOMAIN_PREFIX.test(stage)) {
    throw new StageConfigError(`${source}: consoleDomainPrefix: the stage's name holds aws, amazon or cognito, which Cognito refuses in the default phone-validation-${stage}-<account>: set one`);
  }
  const protect = stage !== 'dev';
  return {
    ...rest,
    stage,
    stackName,
    terminationProtection: terminationProtection ?? protect,
    tableDeletionProtection: tableDeletionProtection ?? protect,
    names: stageNames({ stage, stackName, consoleDomainPrefix }),
    downloadsPublicKey,
    downloadsSecondPublicKey,
  };
}

/** A CloudFront public key PEM read from the stage's file, whole. */
function readPublicKey(source: string, field: string, file: string, root: string): string {
  const path = isAbsolute(file) ? file : join(root, file);
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch {
    throw new StageConfigError(`${source}: ${field}: cannot read ${path}`);
  }
  if (!/^-----BEGIN PUBLIC KEY-----\r?\n[\s\S]+\r?\n-----END PUBLIC KEY-----\s*$/.test(pem)) {
    throw new StageConfigError(`${source}: ${field}: ${path} is not a PEM public key (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----)`);
  }
  return pem;
}
