import { generateKeyPairSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { parseStageConfig } from '../../lib/stage-config';
import { ACCESS_LOG_FIELDS } from '../../lib/api-construct';
import { nagErrorsFor, synthStack, testApp } from '../support/stack';

// Issue 28 items 2 and 8: a first deploy that can be retried, a teardown and redeploy of a stage,
// and production hygiene (protection, pinned logical ids, tags, versioning, backups, access logs).

type Resource = { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

function synth(stage: string, raw: Record<string, unknown> = {}) {
  const config = parseStageConfig(stage, raw, process.cwd());
  const app = testApp();
  const stack = new PhoneValidationStack(app, config.stackName, { config, env: { account: '111111111111', region: 'us-east-1' } });
  const template = Template.fromStack(stack);
  return { config, stack, template, resources: template.toJSON().Resources as Record<string, Resource>, artifact: app.synth().getStackByName(config.stackName) };
}

const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
/** A prod stage with the backup plan on. */
const withBackup = () => synth('prod', { classificationProvider: 'twilio', backup: { enabled: true } });

describe('first deploy and teardown', () => {
  const { template } = synthStack();
  const all = template.toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(all).filter(([, r]) => r.Type === type);

  it('keeps what holds data when the stack is deleted or the resource replaced, not when its creation rolls back (RetainExceptOnCreate)', () => {
    const stateful = [
      ...ofType('AWS::DynamoDB::GlobalTable'),
      ...ofType('AWS::KMS::Key'),
      ...ofType('AWS::Cognito::UserPool'),
      ...ofType('AWS::S3::Bucket').filter(([id]) => id.startsWith('Data')),
    ];
    expect(stateful.map(([id]) => id).sort()).toEqual(['ConsoleUsersE8A0E376', 'DataFilesC1590605', 'DataScreenshots4295020D', 'DataSecretsKey873C68EF', 'DataTableFDBAD0F2']);
    for (const [id, r] of stateful) expect([id, r.DeletionPolicy, r.UpdateReplacePolicy]).toEqual([id, 'RetainExceptOnCreate', 'Retain']);
    // Nothing is plain Retain any more: a rolled-back first deploy leaves nothing behind.
    for (const [id, r] of Object.entries(all)) expect([id, r.DeletionPolicy]).not.toEqual([id, 'Retain']);
  });

  it('names no bucket with a fixed name: the files bucket carries the stack id, the others are named by CloudFormation', () => {
    for (const [id, bucket] of ofType('AWS::S3::Bucket')) {
      const name = bucket.Properties?.BucketName;
      if (id.startsWith('DataFiles')) expect(JSON.stringify(name)).toContain('"Ref":"AWS::StackId"');
      else expect(name, id).toBeUndefined();
    }
  });

  it('deletes the console domain and the console bucket (emptied first) with the stack, so a redeploy of the stage can take them again', () => {
    const [[, domain]] = [ofType('AWS::Cognito::UserPoolDomain')[0]!];
    expect(domain.DeletionPolicy ?? 'Delete').toBe('Delete');
    const [, consoleBucket] = ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('ConsoleBucket'))!;
    expect(consoleBucket.DeletionPolicy).toBe('Delete');
    template.hasResourceProperties('Custom::CDKBucketDeployment', { RetainOnDelete: false });
  });

  it('protects the table from deletion, and the stack from termination, on every stage but dev', () => {
    const prod = synth('prod');
    prod.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { Replicas: [Match.objectLike({ DeletionProtectionEnabled: true })] });
    expect(prod.artifact.terminationProtection).toBe(true);
    const dev = synth('dev');
    dev.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] });
    expect(dev.artifact.terminationProtection).toBe(false);
    // The stage file decides when it says so.
    const qa = synth('qa', { terminationProtection: false, tableDeletionProtection: false });
    qa.template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { Replicas: [Match.objectLike({ DeletionProtectionEnabled: false })] });
    expect(qa.artifact.terminationProtection).toBe(false);
  });

  it('reserves no concurrency unless the stage file asks (a new account refuses it)', () => {
    for (const fn of ofType('AWS::Lambda::Function')) expect(fn[1].Properties?.ReservedConcurrentExecutions, fn[0]).toBeUndefined();
  });
});

describe('production hygiene', () => {
  const { template } = synthStack();
  const all = template.toJSON().Resources as Record<string, Resource>;

  it('pins the logical ids of everything that holds data or an operator-entered value (a renamed construct must not replace it)', () => {
    const { resources } = withBackup();
    const withKey = (() => {
      const app = testApp();
      const config = { ...parseStageConfig('keyed', { backup: { enabled: true } }, process.cwd()), downloadsPublicKey: publicKey };
      return Template.fromStack(new PhoneValidationStack(app, config.stackName, { config, env: { account: '111111111111', region: 'us-east-1' } })).toJSON().Resources as Record<string, Resource>;
    })();
    const statefulIn = (r: Record<string, Resource>) =>
      Object.entries(r).filter(([, x]) => x.DeletionPolicy === 'RetainExceptOnCreate' || x.DeletionPolicy === 'Retain' || x.DeletionPolicy === 'Snapshot' || x.Type === 'AWS::SecretsManager::Secret').map(([id, x]) => `${x.Type} ${id}`);
    const withProvider = (classificationProvider: 'telnyx' | 'trestle') => {
      const app = testApp();
      const config = parseStageConfig(classificationProvider, { classificationProvider }, process.cwd());
      return Template.fromStack(new PhoneValidationStack(app, config.stackName, { config, env: { account: '111111111111', region: 'us-east-1' } })).toJSON().Resources as Record<string, Resource>;
    };
    const found = [...new Set([...statefulIn(resources), ...statefulIn(withKey), ...statefulIn(withProvider('telnyx')), ...statefulIn(withProvider('trestle'))])].sort();
    const pinned = JSON.parse(readFileSync(join(import.meta.dirname, 'stateful-logical-ids.json'), 'utf8')) as string[];
    // A change here replaces data in every deployed stage: pin the new resource in lib/stateful-ids.ts and list it, never rename one.
    expect(found).toEqual(pinned);
  });

  it('tags every taggable resource with the service and the stage', () => {
    const { template: prod } = synth('prod');
    const tagged = Object.entries(prod.toJSON().Resources as Record<string, Resource>).filter(([, r]) => ['AWS::Lambda::Function', 'AWS::SQS::Queue', 'AWS::S3::Bucket', 'AWS::KMS::Key'].includes(r.Type));
    expect(tagged.length).toBeGreaterThan(20);
    for (const [id, r] of tagged) {
      expect(r.Properties?.Tags, id).toEqual(expect.arrayContaining([{ Key: 'service', Value: 'phone-validation' }, { Key: 'stage', Value: 'prod' }]));
    }
    prod.hasResourceProperties('AWS::DynamoDB::GlobalTable', { Replicas: [Match.objectLike({ Tags: Match.arrayWith([{ Key: 'stage', Value: 'prod' }]) })] });
  });

  it('versions the files bucket and expires earlier versions after retention.noncurrentDays; the table has point-in-time recovery', () => {
    const [, files] = Object.entries(all).find(([id]) => id.startsWith('DataFiles'))!;
    expect(files.Properties?.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = (files.Properties?.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    expect(rules).toContainEqual(expect.objectContaining({ Id: 'noncurrent', NoncurrentVersionExpiration: { NoncurrentDays: 7 }, ExpiredObjectDeleteMarker: true, Status: 'Enabled' }));
    const { template: t } = synth('qa', { retention: { noncurrentDays: 30 } });
    t.hasResourceProperties('AWS::S3::Bucket', { LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'noncurrent', NoncurrentVersionExpiration: { NoncurrentDays: 30 } })]) } });
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', { Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })] });
  });

  it('backs up the table with AWS Backup only when the stage file turns it on, into a vault kept with the data', () => {
    template.resourceCountIs('AWS::Backup::BackupPlan', 0);
    const { template: t, resources } = withBackup();
    t.hasResourceProperties('AWS::Backup::BackupPlan', {
      BackupPlan: { BackupPlanName: 'PhoneValidation-prod-table', BackupPlanRule: [Match.objectLike({ ScheduleExpression: 'cron(0 5 * * ? *)', Lifecycle: { DeleteAfterDays: 35 } })] },
    });
    t.hasResourceProperties('AWS::Backup::BackupSelection', { BackupSelection: Match.objectLike({ Resources: [{ 'Fn::GetAtt': ['DataTableFDBAD0F2', 'Arn'] }] }) });
    expect(resources.DataBackupVault).toMatchObject({ DeletionPolicy: 'RetainExceptOnCreate', UpdateReplacePolicy: 'Retain' });
    expect(JSON.stringify(resources.DataBackupVault!.Properties!.BackupVaultName)).toContain('AWS::StackId');
    const custom = synth('prod2', { backup: { enabled: true, hourUtc: 2, retentionDays: 400 } }).template;
    custom.hasResourceProperties('AWS::Backup::BackupPlan', { BackupPlan: { BackupPlanRule: [Match.objectLike({ ScheduleExpression: 'cron(0 2 * * ? *)', Lifecycle: { DeleteAfterDays: 400 } })] } });
  });

  it('cdk-nag stays clean with every option of this item on (backup plan, protection)', () => {
    expect(nagErrorsFor(parseStageConfig('prod', { backup: { enabled: true } }, process.cwd()))).toEqual([]);
  });

  it('writes the HTTP API access log as one JSON object per request, with the request id a 500 carries', () => {
    const [, stage] = Object.entries(all).find(([, r]) => r.Type === 'AWS::ApiGatewayV2::Stage')!;
    const format = (stage.Properties?.AccessLogSettings as { Format: string }).Format;
    expect(JSON.parse(format)).toEqual(ACCESS_LOG_FIELDS);
    expect(ACCESS_LOG_FIELDS).toMatchObject({ requestId: '$context.requestId', routeKey: '$context.routeKey', status: '$context.status', responseLatency: '$context.responseLatency' });
  });

  it('keeps private keys out of git: *.pem is ignored, the public keys a stage file names under config/keys/ are not', () => {
    const ignored = (path: string) => {
      try {
        execFileSync('git', ['check-ignore', '-q', path], { cwd: process.cwd() });
        return true;
      } catch {
        return false;
      }
    };
    expect(ignored('private.pem')).toBe(true);
    expect(ignored('config/keys/private.pem')).toBe(true);
    expect(ignored('config/keys/staging-downloads-public.pem')).toBe(false);
    // docs/deploy.md makes the private key outside the repository.
    const deploy = readFileSync(join(process.cwd(), 'docs', 'deploy.md'), 'utf8');
    for (const out of deploy.matchAll(/openssl genrsa[^\n]*-out (\S+)/g)) expect(out[1]).toMatch(/^(~|\$HOME|\/)/);
    expect(deploy).toMatch(/openssl genrsa/);
  });
});
