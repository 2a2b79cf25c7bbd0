import { createHash } from 'node:crypto';
import { STAGE_DIMENSION } from '../lambdas/webhooks/metrics';

// Every physical name a stage's stack gives, derived from the stage (and its stack name), so that
// stages deploy side by side in one account and region: test/infra/physical-names.test.ts
// synthesizes every stage file together and fails on any name two stacks share. Names left to
// CloudFormation (the table, queues, functions, log groups, the screenshots and console buckets,
// secrets) are unique by construction; these are the ones the stack must choose.

export interface StageNames {
  /** The dimension every custom metric of the stage carries, and its alarms filter on. */
  readonly metricDimensions: Readonly<Record<string, string>>;
  /** The console's Cognito hosted sign-in domain prefix (unique across AWS in a region). */
  consoleDomainPrefix(account: string): string;
  /**
   * The files bucket: `<stack>-files-<account>-<stack id>`. Being known without the bucket, the
   * console's CSP can name it while the bucket's CORS rule names the console (docs/console.md).
   * `stackIdPart` is the first group of the stack's id (AWS::StackId), new at every creation of the
   * stack: a stack deleted (its files bucket retained) or rolled back and created again gets a new
   * name, never the retained bucket's.
   */
  filesBucket(account: string, stackIdPart: string): string;
  /** An alarm's name: the stack's name, then the alarm's id in the stack. */
  alarm(id: string): string;
  readonly dashboard: string;
  readonly backupPlan: string;
  /** The backup vault outlives its stack (recovery points in it): named per creation like the files bucket. */
  backupVault(stackIdPart: string): string;
}

/** Bucket names are at most 63 characters: `-files-`, the 12-digit account, `-` and the 8 characters of the stack id's part. */
const MAX_BUCKET_STACK_PART = 63 - '-files-'.length - 12 - 1 - 8;

/** The stack's name as S3 accepts it: lowercased, at most `max` characters (a cut name keeps a hash of the whole). */
export function bucketPart(stackName: string, max = MAX_BUCKET_STACK_PART): string {
  let part = stackName.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+$/, '');
  if (part.length > max) part = `${part.slice(0, max - 7).replace(/-+$/, '')}-${createHash('sha256').update(stackName).digest('hex').slice(0, 6)}`;
  // S3 reserves these prefixes.
  if (/^(xn--|sthree-|amzn-s3-demo-)/.test(part)) part = `pv-${part}`.slice(0, max);
  return part;
}

/** The default console domain prefix, or why it cannot be used (Cognito refuses these words in a prefix). */
export const RESERVED_IN_DOMAIN_PREFIX = /aws|amazon|cognito/;

export function stageNames(input: { stage: string; stackName: string; consoleDomainPrefix?: string }): StageNames {
  const { stage, stackName } = input;
  return {
    metricDimensions: { [STAGE_DIMENSION]: stage },
    consoleDomainPrefix: (account) => input.consoleDomainPrefix ?? `phone-validation-${stage}-${account}`,
    filesBucket: (account, stackIdPart) => `${bucketPart(stackName)}-files-${account}-${stackIdPart}`,
    alarm: (id) => `${stackName}-${id}`,
    dashboard: `${stackName}-operations`,
    backupPlan: `${stackName}-table`,
    // Vault names: letters, digits and hyphens, 2-50 characters.
    backupVault: (stackIdPart) => `${bucketPart(stackName, 50 - '-backups-'.length - 8)}-backups-${stackIdPart}`,
  };
}
