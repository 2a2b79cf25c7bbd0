import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DescribeSecretCommand, GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { apiKeyFilledIn, holdsPrivateKey, twilioFilledIn } from '../lambdas/platform/charge-readiness';

// `npm run admin -- doctor --stack NAME`: what a deployed stack still needs from its operator,
// read from the stack's outputs (each secret the operator fills in is one) and the secrets' values
// (never printed). The same rules the functions apply before they charge (lambdas/platform/readiness.ts).

export interface DoctorFinding {
  check: string;
  /** missing: paid requests are refused with 503 until it is fixed; optional: a feature stays off. */
  status: 'ok' | 'missing' | 'optional';
  detail: string;
}

export interface DoctorReport {
  stack: string;
  ready: boolean;
  findings: DoctorFinding[];
}

interface SecretCheck {
  /** The output's logical id without the hash CDK adds inside a construct. */
  output: RegExp;
  check: string;
  filled(value: string | undefined): boolean;
  /** Whether its absence refuses paid work (else a feature that needs it stays off). */
  required: boolean;
  /**
   * Created by the stack with a random value no rule can tell from a real one: filled in only once
   * the operator has put a value (a second version), as the charging functions judge it.
   */
  generatedAtCreate?: boolean;
  fix: string;
}

const SECRET_CHECKS: SecretCheck[] = [
  {
    output: /^(\w*)SigningKeySecret[0-9A-F]{0,8}$/,
    check: 'CloudFront download signing key',
    filled: holdsPrivateKey,
    required: true,
    fix: "put the CloudFront key pair's private key (PEM) in it: aws secretsmanager put-secret-value --secret-id <arn> --secret-string file://<path outside the repository>/private.pem (docs/deploy.md)",
  },
  {
    output: /^TwilioCredentialsSecret$/,
    check: 'Twilio credentials',
    filled: twilioFilledIn,
    required: true,
    fix: 'put {"account_sid": "AC...", "auth_token": "..."} in it (docs/deploy.md)',
  },
  ...(['Telnyx', 'Trestle'] as const).map((name) => ({
    output: new RegExp(`^${name}CredentialsSecret$`),
    check: `${name} API key`,
    filled: apiKeyFilledIn,
    required: true,
    generatedAtCreate: true,
    fix: 'put {"api_key": "..."} in it (docs/deploy.md)',
  })),
  {
    output: /^(\w*)DeviceLabTokenSecret[0-9A-F]{0,8}$/,
    check: 'Device-lab API token (spam carrier tests)',
    filled: (value) => !!value && value.trim().length > 0,
    required: false,
    generatedAtCreate: true,
    fix: "put the device lab's API token in it as plain text, if the stage tests on a device lab (docs/deploy.md)",
  },
];

async function secretValue(secrets: SecretsManagerClient, arn: string): Promise<{ value?: string; error?: string }> {
  try {
    return { value: (await secrets.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString };
  } catch (error) {
    const name = (error as Error).name;
    // A secret created without a value has no AWSCURRENT version yet.
    if (name === 'ResourceNotFoundException') return {};
    return { error: `${name}: ${(error as Error).message}` };
  }
}

/** How many versions a secret has (one until the operator first puts a value; 0 when it cannot be described). */
async function versionCount(secrets: SecretsManagerClient, arn: string): Promise<number> {
  try {
    return Object.keys((await secrets.send(new DescribeSecretCommand({ SecretId: arn }))).VersionIdsToStages ?? {}).length;
  } catch {
    return 0;
  }
}

export async function doctor(stackName: string, cfn: CloudFormationClient = new CloudFormationClient({}), secrets: SecretsManagerClient = new SecretsManagerClient({})): Promise<DoctorReport> {
  const out = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
  const stack = out.Stacks?.[0];
  if (!stack) throw new Error(`stack ${stackName} not found`);
  const findings: DoctorFinding[] = [];
  // A stack in progress or whose create rolled back serves nothing yet (UPDATE_ROLLBACK_COMPLETE still serves its previous version).
  const status = stack.StackStatus ?? 'unknown';
  if (!status.endsWith('_COMPLETE') || status === 'ROLLBACK_COMPLETE' || status === 'DELETE_COMPLETE') {
    findings.push({ check: 'Stack status', status: 'missing', detail: `${status}: deploy it to a *_COMPLETE state first` });
  }
  const outputs = (stack.Outputs ?? []).filter((o) => o.OutputKey && o.OutputValue);
  if (!outputs.some((o) => SECRET_CHECKS[0]!.output.test(o.OutputKey!))) {
    findings.push({ check: 'CloudFront download signing key', status: 'optional', detail: 'CloudFront downloads are off (no downloadsPublicKeyFile): links are S3 presigned and may be valid for less than the hour (docs/uploads.md)' });
  }
  for (const { OutputKey, OutputValue } of outputs) {
    const spec = SECRET_CHECKS.find((c) => c.output.test(OutputKey!));
    if (!spec) continue;
    const { value, error } = await secretValue(secrets, OutputValue!);
    if (spec.filled(value) && spec.generatedAtCreate && (await versionCount(secrets, OutputValue!)) < 2) {
      findings.push({ check: spec.check, status: spec.required ? 'missing' : 'optional', detail: `${OutputKey}: ${OutputValue} still holds the random value the stack created it with; ${spec.fix}` });
    } else if (spec.filled(value)) findings.push({ check: spec.check, status: 'ok', detail: `${OutputKey}: ${OutputValue}` });
    else findings.push({ check: spec.check, status: spec.required ? 'missing' : 'optional', detail: `${OutputKey}: ${OutputValue} ${error ? `cannot be read (${error})` : 'is not filled in'}; ${spec.fix}` });
  }
  return { stack: stackName, ready: findings.every((f) => f.status !== 'missing'), findings };
}
