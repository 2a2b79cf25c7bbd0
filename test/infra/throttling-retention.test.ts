import { describe, expect, it } from 'vitest';

import { Template } from 'aws-cdk-lib/assertions';
import { PhoneValidationStack } from '../../lib/service-stack';
import { parseStageConfig } from '../../lib/stage-config';
import { UPLOAD_CREATE_MEASURED_PEAK_MB, UPLOAD_CREATE_MEMORY_MB } from '../../lib/memory-sizing';
import { nagErrors, synthStack, testApp } from '../support/stack';

// Issue 12 items 7 and 9: retention from the stage configuration, stage throttling on the HTTP API,
// reserved concurrency for background fan-out.

function synthWith(raw: unknown): Template {
  const app = testApp();
  const config = parseStageConfig('ops', raw, process.cwd());
  return Template.fromStack(new PhoneValidationStack(app, 'OpsStack', { env: { account: '111111111111', region: 'us-east-1' }, config }));
}

const rulesOf = (template: Template, bucketPrefix: string) => {
  const [, bucket] = Object.entries(template.findResources('AWS::S3::Bucket')).find(([id]) => id.startsWith(bucketPrefix))!;
  return (bucket.Properties.LifecycleConfiguration.Rules as { Id?: string; Prefix?: string; ExpirationInDays?: number; Status: string }[]).filter((r) => r.ExpirationInDays !== undefined);
};
const functionByDescription = (template: Template, text: string) =>
  Object.values(template.findResources('AWS::Lambda::Function')).find((f) => String(f.Properties.Description).includes(text))!;

describe('retention, throttling and isolation', () => {
  const { template } = synthStack();

  it('expires uploads/ and the console drafts after the default days, staging/ sooner, and screenshots after 7', () => {
    expect(rulesOf(template, 'DataFiles').map((r) => [r.Id, r.Prefix, r.ExpirationInDays, r.Status]).sort()).toEqual([
      ['staging', 'staging/', 2, 'Enabled'],
      ['uploads', 'uploads/', 90, 'Enabled'],
      ['web-drafts', 'web-drafts/', 90, 'Enabled'],
    ]);
    // Every prefix the service writes customer files under expires (the console's drafts were kept for good).
    for (const prefix of ['uploads/', 'staging/', 'web-drafts/']) expect(rulesOf(template, 'DataFiles').map((r) => r.Prefix)).toContain(prefix);
    expect(rulesOf(template, 'DataScreenshots').map((r) => [r.Prefix, r.ExpirationInDays])).toEqual([[undefined, 7]]);
  });

  it('throttles the HTTP API stage and reserves no concurrency by default (a new account\'s quota refuses 30 reserved)', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', { StageName: '$default', DefaultRouteSettings: { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 } });
    for (const f of Object.values(template.findResources('AWS::Lambda::Function'))) expect(f.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('with reserveConcurrency, reserves it for the background fan-out only', () => {
    const reserved = synthWith({ reserveConcurrency: true });
    expect(functionByDescription(reserved, 'Uploads: classify one chunk').Properties.ReservedConcurrentExecutions).toBe(20);
    expect(functionByDescription(reserved, 'tests one monitored number').Properties.ReservedConcurrentExecutions).toBe(10);
    // The API functions are never reserved (or capped): they share what the fan-out leaves.
    for (const f of Object.values(reserved.findResources('AWS::Lambda::Function')).filter((f) => String(f.Properties.Description).startsWith('API: '))) {
      expect(f.Properties.ReservedConcurrentExecutions).toBeUndefined();
    }
  });

  it('takes days, throttle and reservations from the stage configuration', () => {
    const t = synthWith({ retention: { uploadsDays: 30, stagingDays: 1 }, apiThrottle: { rateLimit: 50, burstLimit: 100 }, reserveConcurrency: true, uploadClassifyConcurrency: 8 });
    expect(rulesOf(t, 'DataFiles').map((r) => [r.Prefix, r.ExpirationInDays]).sort()).toEqual([
      ['staging/', 1],
      ['uploads/', 30],
      ['web-drafts/', 30],
    ]);
    // The functions that hand out download links know the days: a file gone after them is expected, one gone before is lost.
    const api = Object.values(t.findResources('AWS::Lambda::Function')).filter((f) => String(f.Properties.Description).startsWith('API: '));
    expect(api.length).toBeGreaterThan(0);
    for (const f of api) expect(f.Properties.Environment.Variables.UPLOADS_RETENTION_DAYS).toBe('30');
    t.hasResourceProperties('AWS::ApiGatewayV2::Stage', { DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 } });
    expect(functionByDescription(t, 'Uploads: classify one chunk').Properties.ReservedConcurrentExecutions).toBe(8);

    const unreserved = synthWith({ reserveConcurrency: false });
    for (const f of Object.values(unreserved.findResources('AWS::Lambda::Function'))) expect(f.Properties.ReservedConcurrentExecutions).toBeUndefined();
  });

  it('gives the provider limits to the steps that apply them, the account rate to whatever plans chunks too', () => {
    const rateOf = (t: Template, text: string, variable = 'TWILIO_REQUESTS_PER_SECOND') => functionByDescription(t, text).Properties.Environment.Variables[variable] as string | undefined;
    expect(rateOf(template, 'Uploads: classify one chunk')).toBeUndefined(); // a free provider has no rate
    expect(functionByDescription(template, 'Uploads: summary, processed file').Properties.Environment.Variables.PROVIDER_FAILURE_MAX_SHARE).toBe('0.1');
    const twilio = synthWith({ classificationProvider: 'twilio' });
    const t = synthWith({ classificationProvider: 'twilio', provider: { requestsPerSecond: 20, maxFailedShare: 0.02 } });
    // Prepare sizes chunks and their concurrency by the rate (chunk-plan.ts), the console shows progress by it.
    for (const step of ['Uploads: classify one chunk', 'Uploads: mark processing', 'Console']) {
      expect(rateOf(twilio, step), step).toBe('50');
      expect(rateOf(t, step), step).toBe('20');
    }
    expect(rateOf(synthWith({ classificationProvider: 'telnyx', provider: { requestsPerSecond: 200 } }), 'Uploads: mark processing', 'TELNYX_REQUESTS_PER_SECOND')).toBe('200');
    expect(functionByDescription(t, 'Uploads: summary, processed file').Properties.Environment.Variables.PROVIDER_FAILURE_MAX_SHARE).toBe('0.02');
    expect(() => parseStageConfig('bad', { provider: { maxFailedShare: 2 } }, process.cwd())).toThrow(/provider\.maxFailedShare/);
  });

  it('gives the lookup cache settings to the classify step, which alone may reach the cache (in batches)', () => {
    const vars = (t: Template) => functionByDescription(t, 'Uploads: classify one chunk').Properties.Environment.Variables as Record<string, string>;
    expect(vars(template)).toMatchObject({ LOOKUP_CACHE: 'on', LOOKUP_CACHE_LINE_TTL_DAYS: '30', LOOKUP_CACHE_STATUS_TTL_HOURS: '24', LOOKUP_CACHE_IDENTITY_TTL_DAYS: '30', LOOKUP_CACHE_SHARE_IDENTITY: 'false', LOOKUP_CLAIM_SECONDS: '60' });
    const t = synthWith({ lookupCache: { enabled: false, lineTypeDays: 14, lineStatusHours: 0, identityDays: 7, shareIdentity: true, claimSeconds: 0 } });
    expect(vars(t)).toMatchObject({ LOOKUP_CACHE: 'off', LOOKUP_CACHE_LINE_TTL_DAYS: '14', LOOKUP_CACHE_STATUS_TTL_HOURS: '0', LOOKUP_CACHE_IDENTITY_TTL_DAYS: '7', LOOKUP_CACHE_SHARE_IDENTITY: 'true', LOOKUP_CLAIM_SECONDS: '0' });
    expect(() => parseStageConfig('bad', { lookupCache: { lineTypeDays: -1 } }, process.cwd())).toThrow(/lookupCache\.lineTypeDays/);
    // A claim longer than the time a chunk keeps for lookups in flight is refused.
    expect(() => parseStageConfig('bad', { lookupCache: { claimSeconds: 91 } }, process.cwd())).toThrow(/lookupCache\.claimSeconds/);
    expect(() => parseStageConfig('bad', { lookupCache: { ttl: 3 } }, process.cwd())).toThrow(/lookupCache/);
    // Batch reads are no longer the cache's alone (authentication reads a key with its user and
    // organization in one BatchGetItem): the cache's partitions are what only ClassifyChunk is granted.
    const cache = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p).includes('"LOOKUP#*"'));
    expect(cache).toHaveLength(1);
    expect(JSON.stringify(cache[0])).toContain('ClassifyChunk');
    expect(JSON.stringify(cache[0])).toContain('dynamodb:BatchGetItem');
  });

  it('sizes memory from the measured peaks: upload creation 1024 MB, the pipeline steps above their peak', () => {
    expect(functionByDescription(template, 'API: uploads').Properties.MemorySize).toBe(1024);
    expect(functionByDescription(template, 'Console API').Properties.MemorySize).toBe(1024);
    // At least 40% over the uploads function's own measured peak for a 100 MB staged CSV (npm run bench -- api-memory).
    expect(UPLOAD_CREATE_MEMORY_MB).toBeGreaterThanOrEqual(UPLOAD_CREATE_MEASURED_PEAK_MB * 1.4);
    // The whole pipeline in one process peaked at 835 MB for 250,000 rows (bench/after.json).
    expect(functionByDescription(template, 'Uploads: mark processing').Properties.MemorySize).toBeGreaterThan(835);
    expect(functionByDescription(template, 'Uploads: summary, processed file').Properties.MemorySize).toBeGreaterThan(835);
  });

  it('refuses a bad value naming the field', () => {
    expect(() => parseStageConfig('bad', { retention: { uploadsDays: 0 } }, process.cwd())).toThrow(/retention\.uploadsDays/);
    expect(() => parseStageConfig('bad', { apiThrottle: { rateLimit: 'lots' } }, process.cwd())).toThrow(/apiThrottle\.rateLimit/);
    expect(() => parseStageConfig('bad', { retention: { screenshotsDays: 30 } }, process.cwd())).toThrow(/retention/);
  });

  it('adds no unsuppressed cdk-nag findings', () => {
    expect(nagErrors()).toEqual([]);
  });
});
