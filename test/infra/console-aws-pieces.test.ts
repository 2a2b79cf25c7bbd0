import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PhoneValidationStack } from '../../lib/service-stack';
import { nagErrors, synthStack } from '../support/stack';

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
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  return Template.fromStack(new PhoneValidationStack(app, 'OptStack', { env: { account: '111111111111', region: 'us-east-1' } }));
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
    // The page may connect to the files bucket (its CSP), where the presigned POST sends the file.
    const csp = JSON.stringify(Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]);
    expect(csp).toContain("connect-src 'self' https://cognito-idp.us-east-1.amazonaws.com");
    expect(csp).toContain(' https://*.s3.us-east-1.amazonaws.com https://*.s3.amazonaws.com;');
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
  }, 120_000);
});
