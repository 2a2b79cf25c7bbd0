import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { synthStack } from '../support/stack';

describe('pagination cursor key', () => {
  const { template } = synthStack();
  const secrets = template.findResources('AWS::SecretsManager::Secret', { Properties: { Description: Match.stringLikeRegexp('pagination cursors') } });
  const secretId = Object.keys(secrets)[0]!;

  it('is a secret generated at deploy, never a value in the template', () => {
    expect(Object.keys(secrets)).toHaveLength(1);
    expect(secrets[secretId]!.Properties.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(secrets[secretId]!.Properties.SecretString).toBeUndefined();
  });

  it('is named by CURSOR_SECRET_ARN in exactly the functions that serve cursor lists, each allowed to read it', () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const withKey = Object.entries(functions).filter(([, f]) => f.Properties.Environment?.Variables?.CURSOR_SECRET_ARN);
    const descriptions = withKey.map(([, f]) => String(f.Properties.Description)).sort();
    expect(descriptions).toEqual(['API: contacts', 'API: uploads', 'API: webhooks', 'Console API']);
    for (const [, fn] of withKey) {
      expect(fn.Properties.Environment.Variables.CURSOR_SECRET_ARN).toEqual({ Ref: secretId });
      expect(fn.Properties.Environment.Variables.CURSOR_SECRET).toBeUndefined();
      const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role));
      const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
      expect(statements.some((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource) === JSON.stringify({ Ref: secretId }))).toBe(true);
    }
  });
});
