import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { STAND_IN_PAGE, testApp } from '../support/stack';
import { CONTEXT_SETTINGS, loadStageConfig, refuseContextSettings, StageConfigError } from '../../lib/stage-config';
import { PROJECT_ROOT } from '../../lib/service-function';
import { tempDir } from '../support/temp-dirs';

// The stage configuration kept in the repository (config/stages/<stage>.json), validated at synth.

function repoWith(stages: Record<string, unknown>, files: Record<string, string> = {}): string {
  const root = tempDir('pvs-stage-');
  mkdirSync(join(root, 'config', 'stages'), { recursive: true });
  for (const [name, body] of Object.entries(stages)) writeFileSync(join(root, 'config', 'stages', `${name}.json`), JSON.stringify(body));
  for (const [path, body] of Object.entries(files)) writeFileSync(join(root, path), body);
  return root;
}

const synth = (stage: string, root: string) => {
  const config = loadStageConfig(stage, root);
  const app = testApp();
  const stack = new PhoneValidationStack(app, config.stackName, { config, env: { account: '111111111111', region: 'us-east-1' } });
  return { stack, template: Template.fromStack(stack) };
};
const template = (synthesized: { template: Template }) => synthesized.template;

describe('stage configuration', () => {
  it('the repository ships a dev stage that synthesizes as PhoneValidation-dev', () => {
    const config = loadStageConfig('dev', process.cwd());
    expect(config).toMatchObject({ stage: 'dev', stackName: 'PhoneValidation-dev', classificationProvider: 'offline', contactPoolMinutes: 5 });
  });

  it('a multi-line PEM given by file path lands whole in the template', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(pem.split('\n').length).toBeGreaterThan(5);
    const root = repoWith({ prod: { downloadsPublicKeyFile: 'public.pem', alarmEmail: 'oncall@example.test' } }, { 'public.pem': pem });
    const { template } = synth('prod', root);
    const keys = Object.values(template.findResources('AWS::CloudFront::PublicKey')) as { Properties: { PublicKeyConfig: { EncodedKey: string } } }[];
    expect(keys).toHaveLength(1);
    expect(keys[0]!.Properties.PublicKeyConfig.EncodedKey.trim()).toBe(pem.trim());
  });

  it('two syntheses with one configuration give the same template', () => {
    const root = repoWith({ qa: { classificationProvider: 'simulator', contactPoolMinutes: 10, spam: { runHourUtc: 3 } } });
    expect(synth('qa', root).template.toJSON()).toEqual(synth('qa', root).template.toJSON());
  });

  it('secrets to fill in are created in their documented JSON shape and named in the outputs', () => {
    const root = repoWith({ tw: { classificationProvider: 'twilio' } });
    const { template } = synth('tw', root);
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { SecretStringTemplate: JSON.stringify({ account_sid: 'REPLACE_WITH_ACCOUNT_SID' }), GenerateStringKey: 'auth_token' },
    });
    const outputs = Object.keys(template.toJSON().Outputs as Record<string, unknown>);
    expect(outputs).toContain('TwilioCredentialsSecret');
    expect(outputs.some((o) => o.includes('DeviceLabTokenSecret'))).toBe(true);
  });

  it('the Telnyx and Trestle keys are created as {"api_key"} secrets and named in the outputs', () => {
    const root = repoWith({ tx: { classificationProvider: 'telnyx' }, tr: { classificationProvider: 'trestle', classificationChain: 'offline-ranges,paid' } });
    expect(Object.keys(synth('tx', root).template.toJSON().Outputs as Record<string, unknown>)).toContain('TelnyxCredentialsSecret');
    const trestle = synth('tr', root);
    expect(Object.keys(trestle.template.toJSON().Outputs as Record<string, unknown>)).toContain('TrestleCredentialsSecret');
    expect(trestle.stack.config.classificationChain).toBe('offline-ranges,paid');
  });

  it('stages deploy side by side: the stage is in the stack name', () => {
    const root = repoWith({ blue: {}, green: {} });
    expect(synth('blue', root).stack.stackName).toBe('PhoneValidation-blue');
    expect(synth('green', root).stack.stackName).toBe('PhoneValidation-green');
  });

  it('physical names come from the stage: console domain, alarms, dashboard, metric dimension; a prefix Cognito refuses stops synth', () => {
    const root = repoWith({ blue: {}, named: { consoleDomainPrefix: 'acme-pv-console' }, awsome: {}, badprefix: { consoleDomainPrefix: 'my-cognito-login' } });
    const blue = loadStageConfig('blue', root);
    expect(blue.names.consoleDomainPrefix('123456789012')).toBe('phone-validation-blue-123456789012');
    expect(blue.names.alarm('Api5xx')).toBe('PhoneValidation-blue-Api5xx');
    expect(blue.names.dashboard).toBe('PhoneValidation-blue-operations');
    expect(blue.names.metricDimensions).toEqual({ Stage: 'blue' });
    expect(loadStageConfig('named', root).names.consoleDomainPrefix('123456789012')).toBe('acme-pv-console');
    expect(() => loadStageConfig('awsome', root)).toThrow(/consoleDomainPrefix: .*aws, amazon or cognito/);
    expect(() => loadStageConfig('badprefix', root)).toThrow(/consoleDomainPrefix: .*aws, amazon or cognito/);
    template(synth('blue', root)).hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'phone-validation-blue-111111111111' });
  });

  it('a bad field stops synth with the file, the field and what it accepts', () => {
    const root = repoWith({
      typo: { alarmEmail: 'not-an-address', contactPoolMinutes: 0, clasificationProvider: 'twilio' },
      badkey: { downloadsPublicKeyFile: 'missing.pem' },
      notpem: { downloadsPublicKeyFile: 'key.txt' },
    }, { 'key.txt': '-----BEGIN PUBLIC KEY-----' });
    const attempt = (stage: string) => () => loadStageConfig(stage, root);
    expect(attempt('typo')).toThrow(StageConfigError);
    expect(attempt('typo')).toThrow(/typo\.json: .*alarmEmail: .*email.*contactPoolMinutes: .*>=1.*clasificationProvider/s);
    expect(attempt('badkey')).toThrow(/downloadsPublicKeyFile: cannot read .*missing\.pem/);
    expect(attempt('notpem')).toThrow(/downloadsPublicKeyFile: .* is not a PEM public key/);
    expect(attempt('nosuch')).toThrow(/no such stage file/);
    expect(attempt('Bad_Name')).toThrow(/lowercase letters/);
  });

  it('a setting given as -c instead of in the stage file stops synth with one line naming the stage-file setting', async () => {
    // The stack reads these from context only when given no configuration (tests); bin/app.ts always gives the stage file's.
    for (const [key, setting] of Object.entries(CONTEXT_SETTINGS)) {
      expect(() => refuseContextSettings('qa', (k) => (k === key ? 'x' : undefined))).toThrow(new StageConfigError(`-c ${key}: a deploy does not read this setting from context; set ${setting} in config/stages/qa.json instead`));
    }
    expect(() => refuseContextSettings('qa', (k) => ({ stage: 'qa', consolePageDir: 'page' })[k])).not.toThrow();
    const failed = await promisify(execFile)(join(PROJECT_ROOT, 'node_modules/.bin/tsx'), [join(PROJECT_ROOT, 'bin/app.ts')], {
      cwd: PROJECT_ROOT,
      // How the CLI hands `-c` values and the output folder to the app; bundling skipped.
      env: { ...process.env, CDK_CONTEXT_JSON: JSON.stringify({ 'aws:cdk:bundling-stacks': [], consolePageDir: STAND_IN_PAGE, stage: 'dev', spamOriginationIdentity: '+12025550100' }), CDK_OUTDIR: tempDir('pv-out-') },
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed!.stderr.trim().split('\n')).toEqual([
      'Stage configuration: -c spamOriginationIdentity: a deploy does not read this setting from context; set spam.originationIdentity in config/stages/dev.json instead',
    ]);
  });
});
