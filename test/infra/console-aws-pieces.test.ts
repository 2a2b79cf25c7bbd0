import { describe, expect, it } from 'vitest';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { PhoneValidationStack } from '../../lib/service-stack';
import { filesBucketName } from '../../lib/data-construct';
import { stageNames } from '../../lib/stage-names';
import { renderCfn, TEST_STACK_UUID } from '../support/cfn-render';
import { nagErrors, synthStack, testApp } from '../support/stack';

// What the console needs in AWS beyond its own pieces: the spam API's grants for its spam page,
// and CORS on the files bucket for its origin only (large files go straight to S3).

type Resource = { Type: string; Properties: Record<string, unknown> };

function functionByDescription(template: Template, description: string): { id: string; env: Record<string, unknown>; policy: string } {
  const fns = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, r]) => (r as Resource).Properties.Description === description);
  expect(fns).toHaveLength(1);
  const [id, fn] = fns[0]!;
  const role = JSON.stringify((fn as Resource).Properties.Role);
  const roleId = /"Fn::GetAtt":\["([^"]+)"/.exec(role)![1]!;
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify((p as Resource).Properties.Roles).includes(`"${roleId}"`));
  return { id, env: ((fn as Resource).Properties.Environment as { Variables: Record<string, unknown> }).Variables, policy: JSON.stringify(policies.map((p) => (p as Resource).Properties.PolicyDocument)) };
}

function synthWith(context: Record<string, unknown>): Template {
  const app = testApp(context);
  return Template.fromStack(new PhoneValidationStack(app, 'OptStack', { env: { account: '111111111111', region: 'us-east-1' } }));
}

const filesBucketId = (template: Template) => {
  const buckets = Object.keys(template.findResources('AWS::S3::Bucket')).filter((id) => id.startsWith('DataFiles'));
  expect(buckets).toHaveLength(1);
  return buckets[0]!;
};
const filesBucket = (template: Template) => template.toJSON().Resources[filesBucketId(template)] as Resource;

/** A template value as a string: pseudo-parameters filled in, other references as `<LogicalId>`. */
const render = (value: unknown, region = 'us-east-1'): string => String(renderCfn(value, { account: '111111111111', region, stackName: 'TestStack', stackUuid: TEST_STACK_UUID }));

/** Logical ids a resource refers to (Ref, Fn::GetAtt, ${…} in Fn::Sub). */
function referencesIn(value: unknown, resources: Record<string, unknown>): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (k === 'Ref' && typeof child === 'string' && child in resources) found.add(child);
      else if (k === 'Fn::GetAtt') found.add((typeof child === 'string' ? child.split('.') : (child as string[]))[0]!);
      else if (k === 'Fn::Sub') for (const m of JSON.stringify(child).matchAll(/\$\{([A-Za-z0-9]+)[.}]/g)) if (m[1]! in resources) found.add(m[1]!);
      walk(child);
    }
  };
  walk((value as { Properties?: unknown }).Properties);
  return [...found];
}

function reaches(edges: Map<string, Set<string>>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(edges.get(id) ?? []));
  }
  return false;
}

const screenshotsBucketId = (template: Template) => {
  const buckets = Object.keys(template.findResources('AWS::S3::Bucket')).filter((id) => id.includes('Screenshots'));
  expect(buckets).toHaveLength(1);
  return buckets[0]!;
};

describe('the console in AWS', () => {
  const { template } = synthStack();

  it('lets only the console origin upload to the files bucket from a browser (POST and PUT)', () => {
    const withCors = Object.entries(template.findResources('AWS::S3::Bucket')).filter(([, b]) => (b as Resource).Properties.CorsConfiguration);
    expect(withCors.map(([id]) => id)).toEqual([expect.stringContaining('Files')]);
    const rules = ((withCors[0]![1] as Resource).Properties.CorsConfiguration as { CorsRules: Record<string, unknown>[] }).CorsRules;
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ AllowedMethods: ['POST', 'PUT'], AllowedHeaders: ['content-type'], MaxAge: 3600 });
    const origins = JSON.stringify(rules[0]!.AllowedOrigins);
    expect((rules[0]!.AllowedOrigins as unknown[]).length).toBe(1);
    // https:// + the console distribution's domain, nothing wider.
    expect(origins).toMatch(/"https:\/\/",\{"Fn::GetAtt":\["ConsoleDistribution[0-9A-F]+","DomainName"\]\}/);
    expect(origins).not.toContain('*');
  });

  it("lets the page connect to exactly the files bucket's regional host, where the SDK's presigned POST sends the file", async () => {
    const bucketName = render(filesBucket(template).Properties.BucketName);
    expect(bucketName).toBe(`teststack-files-111111111111-${TEST_STACK_UUID.split('-')[0]}`);
    const policies = Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy')) as Resource[];
    expect(policies).toHaveLength(1);
    const csp = render((policies[0]!.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } }).SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).not.toContain('*');
    const connect = csp.split('; ').find((d) => d.startsWith('connect-src '))!.split(' ').slice(1);
    expect(connect).toEqual(["'self'", 'https://cognito-idp.us-east-1.amazonaws.com', expect.stringMatching(/^https:\/\/<ConsoleUsersHostedSignIn[0-9A-F]+>\.auth\.us-east-1\.amazoncognito\.com$/), `https://${bucketName}.s3.us-east-1.amazonaws.com`]);
    // The host the page posts large files to: the staging path's presigned POST, as the SDK makes it.
    for (const region of ['us-east-1', 'eu-west-1']) {
      const name = render(filesBucket(template).Properties.BucketName, region);
      const signer = new S3Client({ region, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example' } });
      const post = await createPresignedPost(signer, { Bucket: name, Key: 'staging/org/id.csv', Expires: 60 });
      const connectIn = render((policies[0]!.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } } }).SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy, region);
      expect(connectIn.split('; ').find((d) => d.startsWith('connect-src '))!.split(' ').at(-1)).toBe(new URL(post.url).origin);
    }
  });

  it('has no dependency cycle: the CSP names the bucket by its name, the bucket names the distribution in its CORS rule', () => {
    const resources = template.toJSON().Resources as Record<string, { DependsOn?: string | string[] }>;
    const edges = new Map(Object.entries(resources).map(([id, r]) => [id, new Set([...referencesIn(r, resources), ...[r.DependsOn ?? []].flat()])]));
    const bucket = filesBucketId(template);
    const distribution = Object.keys(template.findResources('AWS::CloudFront::Distribution')).find((id) => id.startsWith('Console'))!;
    // Each way round, as the design says: the bucket waits for the distribution (CORS), never the reverse.
    expect(reaches(edges, bucket, distribution)).toBe(true);
    expect(reaches(edges, distribution, bucket)).toBe(false);
    // (A cycle would not get this far: Template.fromStack refuses one, "Template is undeployable";
    // the CSP naming the bucket resource, bucketRegionalDomainName, does exactly that.)
  });

  it('gives the console function what the spam API function has: telephony settings and the screenshots', () => {
    const spamApi = functionByDescription(template, 'API: spam');
    const consoleFn = functionByDescription(template, 'Console API');
    for (const name of ['TELEPHONY_PROVIDER', 'SMS_VOICE_ORIGINATION_IDENTITY', 'SCREENSHOTS_BUCKET']) expect(consoleFn.env[name]).toEqual(spamApi.env[name]);
    const screenshots = screenshotsBucketId(template);
    const readShots = new RegExp(`"Action":"s3:GetObject","Effect":"Allow","Resource":\\{"Fn::Join":\\["",\\[\\{"Fn::GetAtt":\\["${screenshots}","Arn"\\]\\},"/spam/\\*"\\]\\]\\}`);
    expect(spamApi.policy).toMatch(readShots);
    expect(consoleFn.policy).toMatch(readShots);
    expect(consoleFn.policy).not.toContain('sms-voice');
  });

  it('with AWS SMS/Voice sending on, the console function may send codes from that identity too; cdk-nag stays clean', () => {
    for (const identity of ['arn:aws:sms-voice:us-east-1:111111111111:phone-number/phone-0123', '+12025550123']) {
      const t = synthWith({ spamOriginationIdentity: identity });
      const spamApi = functionByDescription(t, 'API: spam');
      const consoleFn = functionByDescription(t, 'Console API');
      expect(consoleFn.env.TELEPHONY_PROVIDER).toBe('aws');
      expect(consoleFn.env.SMS_VOICE_ORIGINATION_IDENTITY).toBe(identity);
      const send = (policy: string) => JSON.parse(policy).flatMap((d: { Statement: { Action: unknown; Resource: unknown }[] }) => d.Statement).filter((s: { Action: unknown }) => JSON.stringify(s.Action).includes('sms-voice'));
      expect(send(consoleFn.policy)).toEqual(send(spamApi.policy));
      expect(send(consoleFn.policy)).toHaveLength(1);
      expect(nagErrors({ spamOriginationIdentity: identity })).toEqual([]);
    }
  });
});

describe('the files bucket name', () => {
  const named = (stackName: string) => stageNames({ stage: 'x', stackName }).filesBucket('123456789012', 'a1b2c3d4');

  it('is the lowercased stack name, the account and the first group of the stack id; always a valid S3 name, even for the longest names', () => {
    expect(named('PhoneValidation-dev')).toBe('phonevalidation-dev-files-123456789012-a1b2c3d4');
    const long = 'PhoneValidation-a-very-long-stage-name-for-the-customer-x';
    const other = 'PhoneValidation-a-very-long-stage-name-for-the-customer-y';
    for (const stackName of [long, other, 'A'.repeat(128), 'Xn--weird', 'Sthree-thing']) {
      const name = named(stackName);
      expect(name.length).toBeLessThanOrEqual(63);
      expect(name).toMatch(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/);
      expect(name).not.toMatch(/^(xn--|sthree-)/);
    }
    // Cut names keep apart by a hash of the whole name.
    expect(named(long)).not.toBe(named(other));
  });

  it('in the template: the stack id part comes from AWS::StackId, so a stack created again gets a new bucket name', () => {
    const stack = new Stack(testApp(), 'PhoneValidation-dev');
    const name = stack.resolve(filesBucketName(stack, stageNames({ stage: 'dev', stackName: 'PhoneValidation-dev' })));
    expect(JSON.stringify(name)).toContain('"Ref":"AWS::StackId"');
    const pseudo = { account: '123456789012', region: 'us-east-1', stackName: 'PhoneValidation-dev' };
    const first = renderCfn(name, { ...pseudo, stackUuid: '51af3dc0-da77-11e4-872e-1234567db123' });
    const again = renderCfn(name, { ...pseudo, stackUuid: '7c1e02a0-4f11-11ef-9a4b-0a1b2c3d4e5f' });
    expect(first).toBe('phonevalidation-dev-files-123456789012-51af3dc0');
    expect(again).toBe('phonevalidation-dev-files-123456789012-7c1e02a0');
  });
});
