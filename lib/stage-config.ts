import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as z from 'zod';

// A deployment stage's configuration, kept in the repository (config/stages/<stage>.json) and
// validated at synth: a bad field stops `cdk synth` with the file, the field and what it accepts.
// The same file gives the same template every time, so a redeploy with it changes nothing, and a
// setting cannot be lost by forgetting a `-c` flag (the Twilio secret, the CloudFront distribution
// were deleted that way). docs/deploy.md.

export const StageConfigSchema = z
  .object({
    /** Defaults to PhoneValidation-<stage>: several stages deploy side by side in one account. */
    stackName: z.string().regex(/^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'letters, digits and hyphens, starting with a letter').optional(),
    classificationProvider: z.enum(['offline', 'simulator', 'twilio']).default('offline'),
    /** Path (relative to the repository) of the CloudFront public key PEM for signed download links. */
    downloadsPublicKeyFile: z.string().min(1).optional(),
    /** Receives every alarm (AWS mails a confirmation first). */
    alarmEmail: z.email().optional(),
    contactPoolMinutes: z.number().int().min(1).max(60).default(5),
    /** The HTTP API stage's throttle (requests per second, steady and burst), above the per-key limits. */
    apiThrottle: z
      .object({ rateLimit: z.number().int().min(1).max(10_000).default(500), burstLimit: z.number().int().min(1).max(5_000).default(1_000) })
      .strict()
      .prefault({}),
    /**
     * Background fan-out gets reserved concurrency (spam tests: spam.concurrency; upload chunk
     * classification: uploadClassifyConcurrency), so it can neither take the API's share nor be
     * starved. false for an account whose concurrency quota is still the new-account 10 (AWS refuses
     * reservations there); the queue's and the Map state's maximum concurrency still bound it.
     */
    reserveConcurrency: z.boolean().default(true),
    uploadClassifyConcurrency: z.number().int().min(1).max(1000).default(20),
    /** The lookup provider's account limits (docs/classification.md, Provider limits). */
    provider: z
      .object({
        /** Calls per second across every concurrent chunk of every upload (one token bucket in the table). */
        requestsPerSecond: z.number().int().min(1).max(10_000).default(50),
        /** Above this share of an upload's numbers failing their lookup after retries, the upload fails and is refunded. */
        maxFailedShare: z.number().min(0).max(1).default(0.1),
      })
      .strict()
      .prefault({}),
    /** S3 lifecycle, in days (docs/operations.md, Retention). Spam screenshots: 7 days, fixed by the spec. */
    retention: z
      .object({
        /** Everything under uploads/: originals, chunks and their results, processed files and slices. */
        uploadsDays: z.number().int().min(1).max(3650).default(90),
        /** Staged large files (staging/) never turned into an upload. */
        stagingDays: z.number().int().min(1).max(365).default(2),
      })
      .strict()
      .prefault({}),
    spam: z
      .object({
        runHourUtc: z.number().int().min(0).max(23).optional(),
        originationIdentity: z.string().min(1).optional(),
        deviceLabUrl: z.url().optional(),
        telephonyProvider: z.enum(['aws', 'simulator']).optional(),
        carrierTestProvider: z.enum(['device-lab', 'simulator']).optional(),
        /** Carrier tests at once (the test consumer's maximum concurrency; at least 2, an SQS event source's floor). */
        concurrency: z.number().int().min(2).max(1000).default(10),
        /** Tries per number and carrier before the test is recorded failed. */
        itemAttempts: z.number().int().min(1).max(10).default(3),
        /** One carrier test longer than this is a failed try (a device lab polls for up to 5 minutes). */
        testTimeoutSeconds: z.number().int().min(10).max(840).default(360),
      })
      .strict()
      // prefault: an absent block is parsed as {}, so its fields' defaults apply too.
      .prefault({}),
  })
  .strict();

export type StageConfigFile = z.infer<typeof StageConfigSchema>;

export interface StageConfig extends Omit<StageConfigFile, 'downloadsPublicKeyFile'> {
  stage: string;
  stackName: string;
  /** The PEM itself, whole (a `-c` flag keeps only its first line). */
  downloadsPublicKey?: string;
}

export class StageConfigError extends Error {}

const STAGE_NAME = /^[a-z][a-z0-9-]{0,30}$/;

/** Reads and validates config/stages/<stage>.json under `root`. */
export function loadStageConfig(stage: string, root: string): StageConfig {
  if (!STAGE_NAME.test(stage)) throw new StageConfigError(`stage '${stage}': lowercase letters, digits and hyphens, starting with a letter`);
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
  const { downloadsPublicKeyFile, ...rest } = parsed.data;
  let downloadsPublicKey: string | undefined;
  if (downloadsPublicKeyFile) {
    const path = isAbsolute(downloadsPublicKeyFile) ? downloadsPublicKeyFile : join(root, downloadsPublicKeyFile);
    try {
      downloadsPublicKey = readFileSync(path, 'utf8');
    } catch {
      throw new StageConfigError(`${source}: downloadsPublicKeyFile: cannot read ${path}`);
    }
    if (!/^-----BEGIN PUBLIC KEY-----\r?\n[\s\S]+\r?\n-----END PUBLIC KEY-----\s*$/.test(downloadsPublicKey)) {
      throw new StageConfigError(`${source}: downloadsPublicKeyFile: ${path} is not a PEM public key (-----BEGIN PUBLIC KEY----- … -----END PUBLIC KEY-----)`);
    }
  }
  return { ...rest, stage, stackName: rest.stackName ?? `PhoneValidation-${stage}`, downloadsPublicKey };
}
