import { describe, expect, it } from 'vitest';
import { nagErrors, synthStack } from '../support/stack';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

describe('signing secrets key (KMS)', () => {
  const { template, stack } = synthStack();
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const keys = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::KMS::Key');
  const keyId = keys[0]![0];
  const idOf = (construct: unknown) => stack.getLogicalId((construct as { node: { defaultChild: never } }).node.defaultChild);
  const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
  const nameOf = (fnId: string): string => {
    const named: Record<string, string> = {
      [idOf(stack.api.functions.get('webhooks'))]: 'webhooks API',
      [idOf(stack.api.functions.get('contacts'))]: 'contacts API',
      [idOf(stack.webhooks.consumer)]: 'delivery consumer',
      [idOf(stack.webhooks.sweeper)]: 'delivery sweeper',
    };
    return named[fnId] ?? (resources[fnId]!.Properties.Description === 'Console API' ? 'console API' : fnId);
  };

  /** Function → the KMS actions its role's policies allow, and on what. */
  const kmsGrants = new Map<string, { actions: Set<string>; resources: unknown[] }>();
  for (const [fnId, fn] of functions) {
    const role = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
    for (const policy of Object.values(resources).filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as { Ref: string }[]).some((x) => x.Ref === role))) {
      for (const s of (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement) {
        const actions = [s.Action].flat().filter((a) => a.startsWith('kms:'));
        if (!actions.length) continue;
        const entry = kmsGrants.get(nameOf(fnId)) ?? { actions: new Set<string>(), resources: [] };
        actions.forEach((a) => entry.actions.add(a));
        entry.resources.push(s.Resource);
        kmsGrants.set(nameOf(fnId), entry);
      }
    }
  }

  it('is one customer-managed key with yearly rotation, retained with the table (but not by a rolled-back creation)', () => {
    expect(keys).toHaveLength(1);
    expect(resources[keyId]).toMatchObject({ Properties: { EnableKeyRotation: true }, DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
  });

  it('only the functions that create secrets may encrypt, only those that sign may decrypt, on this key alone', () => {
    const withAction = (action: string) => [...kmsGrants].filter(([, g]) => g.actions.has(action)).map(([name]) => name).sort();
    expect(withAction('kms:Encrypt')).toEqual(['console API', 'contacts API', 'webhooks API']);
    expect(withAction('kms:Decrypt')).toEqual(['console API', 'delivery consumer', 'delivery sweeper', 'webhooks API']);
    for (const [name, grant] of kmsGrants) {
      expect([...grant.actions].filter((a) => a !== 'kms:Encrypt' && a !== 'kms:Decrypt'), name).toEqual([]);
      for (const resource of grant.resources) expect(resource, name).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    }
  });

  it('names the key in the environment of exactly the functions granted on it', () => {
    const withEnv = functions
      .filter(([, fn]) => 'SECRETS_KMS_KEY_ARN' in ((fn.Properties.Environment as { Variables?: object } | undefined)?.Variables ?? {}))
      .map(([id]) => nameOf(id))
      .sort();
    expect(withEnv).toEqual([...kmsGrants.keys()].sort());
    for (const [, fn] of functions) {
      const value = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.SECRETS_KMS_KEY_ARN;
      if (value !== undefined) expect(value).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    }
  });

  it('raises no cdk-nag finding about the key (KMS5: rotation)', () => {
    expect(nagErrors().filter((line) => /KMS|SecretsKey/.test(line))).toEqual([]);
  });
});
