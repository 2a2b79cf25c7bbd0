import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { nagErrors, synthStack, testApp } from '../support/stack';

describe('upload pipeline and contact pool infrastructure', () => {
  const { template } = synthStack();

  it('deploys the same ASL file the local runtime runs, with every function placeholder substituted', () => {
    const asl = readFileSync('statemachines/upload-processing.asl.json', 'utf8');
    const placeholders = [...asl.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]);
    expect(placeholders.sort()).toEqual(['ClassifyChunkFunctionArn', 'FailFunctionArn', 'FinalizeFunctionArn', 'NotifyPoolFunctionArn', 'PrepareFunctionArn']);
    const machines = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(machines).toHaveLength(1);
    const props = machines[0]!.Properties;
    expect(Object.keys(props.DefinitionSubstitutions).sort()).toEqual(placeholders);
    expect(props.TracingConfiguration).toEqual({ Enabled: true });
  });

  it('lets the uploads API, the console API (confirming a web upload), the contact pool and the recovery job start executions, and passes the state machine ARN', () => {
    const withArn = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.UPLOAD_STATE_MACHINE_ARN);
    expect(withArn.length).toBe(4);
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'states:StartExecution' })]) },
    });
  });

  it('sizes the finalize step for 250,000 rows and pools contacts on a schedule', () => {
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('^Uploads: summary'), MemorySize: 3008, Timeout: 900 });
    template.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'rate(5 minutes)', Description: 'Contact pooling' });
  });

  it('expires staged large files', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Prefix: 'staging/', ExpirationInDays: 2, Status: 'Enabled' })]) },
    });
  });
});

describe('twilio provider', () => {
  it('creates the credentials secret and lets only the classify step read it', async () => {
    const { Template } = await import('aws-cdk-lib/assertions');
    const { PhoneValidationStack } = await import('../../lib/service-stack');
    const app = testApp({ classificationProvider: 'twilio' });
    const template = Template.fromStack(new PhoneValidationStack(app, 'TwilioStack', { env: { account: '111111111111', region: 'us-east-1' } }));
    template.resourceCountIs('AWS::SecretsManager::Secret', 3); // Twilio + the spam device-lab token + the cursor key
    const withSecret = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Environment?.Variables?.TWILIO_SECRET_ARN);
    expect(withSecret).toHaveLength(1);
    expect(withSecret[0]!.Properties.Description).toMatch(/classify/);
    expect(withSecret.every((f) => f.Properties.Environment.Variables.CLASSIFICATION_PROVIDER === 'twilio')).toBe(true);
  });
});

describe('telnyx and trestle providers', () => {
  it.each([
    ['telnyx', 'TELNYX_SECRET_ARN'],
    ['trestle', 'TRESTLE_SECRET_ARN'],
  ])('%s: the {"api_key"} secret, readable only by the classify step, which also gets the chain', async (provider, variable) => {
    const { Template } = await import('aws-cdk-lib/assertions');
    const { PhoneValidationStack } = await import('../../lib/service-stack');
    const app = testApp({ classificationProvider: provider, classificationChain: 'offline-ranges,paid' });
    const template = Template.fromStack(new PhoneValidationStack(app, `${provider}Stack`, { env: { account: '111111111111', region: 'us-east-1' } }));
    template.resourceCountIs('AWS::SecretsManager::Secret', 3); // the provider's key + the spam device-lab token + the cursor key
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'api_key' } });
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const withSecret = functions.filter((f) => f.Properties.Environment?.Variables?.[variable]);
    expect(withSecret).toHaveLength(1);
    expect(withSecret[0]!.Properties.Description).toMatch(/classify/);
    expect(withSecret[0]!.Properties.Environment.Variables).toMatchObject({ CLASSIFICATION_PROVIDER: provider, CLASSIFICATION_CHAIN: 'offline-ranges,paid', [`${provider.toUpperCase()}_REQUESTS_PER_SECOND`]: '50' });
    expect(functions.filter((f) => f.Properties.Environment?.Variables?.TWILIO_SECRET_ARN)).toHaveLength(0);
    // Only the classify step may read it; the functions that charge may only see whether it was filled in.
    const secretId = `${provider[0]!.toUpperCase()}${provider.slice(1)}Credentials`;
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const on = (action: string) => statements.filter((st) => [st.Action].flat().includes(action) && JSON.stringify(st.Resource).includes(secretId));
    expect(on('secretsmanager:GetSecretValue')).toHaveLength(1);
    expect(on('secretsmanager:DescribeSecret')).toHaveLength(3);
    expect(functions.filter((f) => f.Properties.Environment?.Variables?.[`${provider.toUpperCase()}_CREDENTIALS_ARN`])).toHaveLength(3);
    expect(nagErrors({ classificationProvider: provider })).toEqual([]);
  });
});

describe('CloudFront download links', () => {
  it('with the operator public key: a distribution only serving signed URLs of the key group, and the signer wired', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { Template } = await import('aws-cdk-lib/assertions');
    const { PhoneValidationStack } = await import('../../lib/service-stack');
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const app = testApp({ downloadsPublicKey: pem, classificationProvider: 'twilio' });
    const template = Template.fromStack(new PhoneValidationStack(app, 'CfStack', { env: { account: '111111111111', region: 'us-east-1' } }));
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'https-only', TrustedKeyGroups: Match.anyValue() }) }),
    });
    template.resourceCountIs('AWS::CloudFront::KeyGroup', 1);
    // The file name the signed link carries reaches S3.
    template.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
      OriginRequestPolicyConfig: Match.objectLike({ QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['response-content-disposition'] } }),
    });
    const signers = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, f]) => f.Properties.Environment?.Variables?.DOWNLOADS_CLOUDFRONT_DOMAIN).map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    // Every function that hands out links (the uploads API, the console API, the finalize step and
    // the recovery job) signs through CloudFront: no S3 link dies with a Lambda session. The
    // contacts API only checks the key is in place before it charges.
    expect(signers.sort()).toEqual(['ApiContactsFunction', 'ApiUploadsFunction', 'ConsoleApiFunction', 'RecoveryJob', 'UploadsFinalize'].sort());
    // Every function that charges sees whether the Twilio secret was filled in (DescribeSecret, not its value).
    const twilioCheckers = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([, f]) => f.Properties.Environment?.Variables?.TWILIO_CREDENTIALS_ARN).map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    expect(twilioCheckers.sort()).toEqual(['ApiContactsFunction', 'ApiUploadsFunction', 'ConsoleApiFunction'].sort());
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'secretsmanager:DescribeSecret', Resource: { Ref: Match.stringLikeRegexp('^TwilioCredentials') } })]) },
    });
    expect(nagErrors({ downloadsPublicKey: pem, classificationProvider: 'twilio' })).toEqual([]);
  });

  it('rotating: a second public key joins the key group, and every signer is told both keys with their fingerprints', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { Template } = await import('aws-cdk-lib/assertions');
    const { PhoneValidationStack } = await import('../../lib/service-stack');
    const { parseStageConfig } = await import('../../lib/stage-config');
    const { publicKeyFingerprint } = await import('../../lambdas/platform/cloudfront-key-ids');
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    const [old, next] = [0, 1].map(() => generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    writeFileSync(join(dir, 'old.pem'), old!);
    writeFileSync(join(dir, 'next.pem'), next!);
    const config = parseStageConfig('rot', { downloadsPublicKeyFile: 'old.pem', downloadsSecondPublicKeyFile: 'next.pem' }, dir);
    const template = Template.fromStack(new PhoneValidationStack(testApp(), 'RotStack', { env: { account: '111111111111', region: 'us-east-1' }, config }));
    const keys = template.findResources('AWS::CloudFront::PublicKey');
    // The first key keeps the logical id it had alone, so its CloudFront key id does not change under links already signed.
    expect(Object.keys(keys).map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['DownloadsSigningPublicKey', 'DownloadsSigningPublicKeySecond']);
    const [group] = Object.values(template.findResources('AWS::CloudFront::KeyGroup'));
    expect(group!.Properties.KeyGroupConfig.Items).toHaveLength(2);
    const finalize = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) => id.startsWith('UploadsFinalize'))![1];
    const ids = JSON.stringify(finalize.Properties.Environment.Variables.DOWNLOADS_CLOUDFRONT_KEY_IDS);
    for (const pem of [old!, next!]) expect(ids).toContain(`=${publicKeyFingerprint(pem)}`);
    expect(() => parseStageConfig('rot', { downloadsPublicKeyFile: 'old.pem', downloadsSecondPublicKeyFile: 'old.pem' }, dir)).toThrow(/the same key as downloadsPublicKeyFile/);
  });
});
