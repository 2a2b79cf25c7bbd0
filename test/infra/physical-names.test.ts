import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { loadStageConfig, parseStageConfig, type StageConfig } from '../../lib/stage-config';
import { renderCfn } from '../support/cfn-render';
import { repositoryStages } from '../support/stage-files';
import { testApp } from '../support/stack';

// Stages side by side (issue 28 item 1): every stage file of the repository, and one more made
// here, synthesized into one account and region; no physical name may be shared by two stacks.

const ACCOUNT = '111111111111';
const REGION = 'us-east-1';

/** Properties whose value is a name AWS holds unique in an account and region (or wider). */
const NAME_KEYS = new Set([
  'BucketName', 'TableName', 'QueueName', 'FunctionName', 'AlarmName', 'TopicName', 'LogGroupName', 'StateMachineName',
  'DashboardName', 'RoleName', 'ManagedPolicyName', 'BackupVaultName', 'BackupPlanName', 'AliasName', 'Domain', 'UserPoolName',
  'ApiName', 'IdentityPoolName', 'ScheduleGroupName', 'EventBusName', 'KeyName',
]);
/** Types whose plain `Name` (or their config's, for CloudFront) is such a name. */
const NAMED_TYPES = /^AWS::(CloudFront::|SecretsManager::Secret$|Scheduler::Schedule$|Scheduler::ScheduleGroup$|Events::Rule$|Events::EventBus$|Pipes::Pipe$)/;

interface Named {
  stack: string;
  what: string;
  name: string;
}

/** The physical names a synthesized stack gives, rendered as CloudFormation would at deploy. */
function physicalNames(stackName: string, template: Record<string, unknown>, stackUuid: string): Named[] {
  const pseudo = { account: ACCOUNT, region: REGION, stackName, stackUuid };
  // A reference to another resource of the stack is unique to the stack: prefix it with the stack.
  const render = (value: unknown) => JSON.stringify(renderCfn(value, pseudo, `${stackName}/`));
  const out: Named[] = [{ stack: stackName, what: 'stack name', name: stackName }];
  const resources = template.Resources as Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  for (const [id, resource] of Object.entries(resources)) {
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) return value.forEach((v, i) => walk(v, `${path}[${i}]`));
      if (!value || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (key.startsWith('Fn::') || key === 'Ref') return;
        const here = `${path}.${key}`;
        if (NAME_KEYS.has(key) || (key === 'Name' && NAMED_TYPES.test(resource.Type))) out.push({ stack: stackName, what: `${resource.Type} ${id}${here}`, name: render(child) });
        // Environment variables and tags are values, not names.
        else if (key !== 'Variables' && key !== 'Tags') walk(child, here);
      }
    };
    walk(resource.Properties, '');
    // Alarms watching one metric (namespace, name, dimensions) in two stacks trip for each other.
    if (resource.Type === 'AWS::CloudWatch::Alarm') {
      const p = resource.Properties!;
      const dimensions = ((p.Dimensions ?? []) as { Name: string; Value: unknown }[]).map((d) => `${d.Name}=${render(d.Value)}`).sort();
      const metric = p.Metrics ? render(p.Metrics) : `${String(p.Namespace)}/${String(p.MetricName)} ${dimensions.join(',')}`;
      out.push({ stack: stackName, what: `metric of alarm ${id}`, name: metric });
    }
  }
  for (const [id, output] of Object.entries((template.Outputs ?? {}) as Record<string, { Export?: { Name: unknown } }>)) {
    if (output.Export) out.push({ stack: stackName, what: `export ${id}`, name: render(output.Export.Name) });
  }
  return out;
}

/** Every name held by more than one stack, with who holds it. */
function shared(names: Named[]): string[] {
  const byName = new Map<string, Named[]>();
  for (const n of names) byName.set(n.name, [...(byName.get(n.name) ?? []), n]);
  return [...byName].filter(([, holders]) => new Set(holders.map((h) => h.stack)).size > 1).map(([name, holders]) => `${name}: ${holders.map((h) => `${h.stack} (${h.what})`).join(', ')}`);
}

function synthAll(configs: StageConfig[]): Named[] {
  const app = testApp();
  // All stacks in the one app first, then synthesized together (as `cdk synth` does).
  const stacks = configs.map((config) => new PhoneValidationStack(app, config.stackName, { config, env: { account: ACCOUNT, region: REGION } }));
  return stacks.flatMap((stack, i) => physicalNames(stack.stackName, Template.fromStack(stack).toJSON(), `${String(i).padStart(8, '0')}-da77-11e4-872e-1234567db123`));
}

describe('stages side by side in one account and region', () => {
  const { root, stages } = repositoryStages();
  // One more, as a team would add it: a copy of dev under another name.
  writeFileSync(join(root, 'config', 'stages', 'qa-on-the-fly.json'), JSON.stringify({ classificationProvider: 'simulator' }));
  const configs = [...stages, 'qa-on-the-fly'].map((stage) => loadStageConfig(stage, root));
  const names = synthAll(configs);

  it('synthesizes every stage file of the repository and one made here', () => {
    expect(stages).toEqual(expect.arrayContaining(['dev', 'example-prod']));
    expect(new Set(names.map((n) => n.stack)).size).toBe(stages.length + 1);
  });

  it('finds the names the stage gives: console domain, files bucket, alarms, dashboard, alarmed metrics', () => {
    const ofDev = names.filter((n) => n.stack === 'PhoneValidation-dev');
    expect(ofDev.find((n) => n.what.includes('UserPoolDomain'))?.name).toBe(JSON.stringify(`phone-validation-dev-${ACCOUNT}`));
    expect(ofDev.find((n) => n.what.includes('.BucketName'))?.name).toBe(JSON.stringify(`phonevalidation-dev-files-${ACCOUNT}-00000000`));
    expect(ofDev.filter((n) => n.what.includes('.AlarmName')).length).toBeGreaterThan(20);
    expect(ofDev.some((n) => n.what.includes('.DashboardName'))).toBe(true);
    expect(ofDev.find((n) => n.what.includes('metric of alarm WebhooksEndpointAutoDisabled'))?.name).toBe('PhoneValidation/Webhooks/EndpointsAutoDisabled Stage="dev"');
  });

  it('no physical name is shared by two stacks', () => {
    expect(shared(names)).toEqual([]);
  });

  it('the check fails when two stages share a name (the same console domain prefix)', () => {
    const a = parseStageConfig('blue', { consoleDomainPrefix: 'acme-console' }, root);
    const b = parseStageConfig('green', { consoleDomainPrefix: 'acme-console' }, root);
    const found = shared(synthAll([a, b]));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^"acme-console": PhoneValidation-blue \(AWS::Cognito::UserPoolDomain .*PhoneValidation-green/);
  });
});
