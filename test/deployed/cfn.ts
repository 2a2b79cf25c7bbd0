import { createHash } from 'node:crypto';
import { ACCOUNT, REGION, STACK_NAME, type Template } from './assembly';

/**
 * What CloudFormation would have named and returned for each resource of the deployed template,
 * resolved here to the embedded services: physical names, ARNs, queue URLs, and the intrinsics
 * (Ref, Fn::GetAtt, Fn::Join, Fn::Sub) the template's environments and policies use.
 */
export class CfnResolver {
  /**
   * @param queueEndpoint Where queue URLs point. The SDK sends SQS calls to the queue URL's host
   * (it overrides the configured endpoint), so a function's queue URLs name its own endpoint, as
   * LocalStack's do.
   */
  constructor(
    private readonly template: Template,
    private readonly queueEndpoint = `https://sqs.${REGION}.amazonaws.com`,
  ) {}

  /** The same resolution with queue URLs on `queueEndpoint`. */
  withQueueEndpoint(queueEndpoint: string): CfnResolver {
    return new CfnResolver(this.template, queueEndpoint);
  }

  /** The name the template gives (a bucket's BucketName), else a deterministic one, lowercase (bucket names must be). */
  physicalName(logicalId: string): string {
    const resource = this.template.Resources[logicalId];
    const given = resource?.Type === 'AWS::S3::Bucket' ? resource.Properties?.BucketName : undefined;
    if (given !== undefined) return String(this.resolve(given));
    return `${STACK_NAME}-${logicalId}`.toLowerCase();
  }

  ref(logicalId: string): string {
    const pseudo: Record<string, string> = {
      'AWS::Partition': 'aws',
      'AWS::Region': REGION,
      'AWS::AccountId': ACCOUNT,
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': STACK_NAME,
      // Its uuid names the files bucket (lib/stage-names.ts).
      'AWS::StackId': `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${STACK_NAME}/51af3dc0-da77-11e4-872e-1234567db123`,
    };
    if (pseudo[logicalId]) return pseudo[logicalId];
    const resource = this.template.Resources[logicalId];
    if (!resource) throw new Error(`Ref to unknown resource ${logicalId}`);
    const name = this.physicalName(logicalId);
    switch (resource.Type) {
      case 'AWS::SQS::Queue':
        return `${this.queueEndpoint}/${ACCOUNT}/${name}`;
      case 'AWS::SecretsManager::Secret':
        return `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${name}-AbCdEf`;
      case 'AWS::StepFunctions::StateMachine':
        return `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:${name}`;
      case 'AWS::KMS::Key': {
        // KMS key ids are UUIDs; this one is stable per logical id.
        const h = createHash('sha256').update(logicalId).digest('hex');
        return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
      }
      case 'AWS::Cognito::UserPool':
        // Cognito pool ids are `<region>_<9 characters>`.
        return `${REGION}_${logicalId.slice(-9)}`;
      default:
        return name;
    }
  }

  getAtt(logicalId: string, attribute: string): string {
    const resource = this.template.Resources[logicalId];
    if (!resource) throw new Error(`GetAtt of unknown resource ${logicalId}`);
    const name = this.physicalName(logicalId);
    const arns: Record<string, string> = {
      'AWS::DynamoDB::GlobalTable': `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`,
      'AWS::DynamoDB::Table': `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`,
      'AWS::S3::Bucket': `arn:aws:s3:::${name}`,
      'AWS::SQS::Queue': `arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`,
      'AWS::Lambda::Function': `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}`,
      'AWS::IAM::Role': `arn:aws:iam::${ACCOUNT}:role/${name}`,
      'AWS::Logs::LogGroup': `arn:aws:logs:${REGION}:${ACCOUNT}:log-group:${name}:*`,
      'AWS::StepFunctions::StateMachine': `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:${name}`,
      'AWS::SecretsManager::Secret': this.ref(logicalId),
      'AWS::KMS::Key': `arn:aws:kms:${REGION}:${ACCOUNT}:key/${this.ref(logicalId)}`,
    };
    if (attribute === 'Arn' && arns[resource.Type]) return arns[resource.Type]!;
    if (resource.Type === 'AWS::SQS::Queue' && attribute === 'QueueName') return name;
    if (resource.Type === 'AWS::SQS::Queue' && attribute === 'QueueUrl') return this.ref(logicalId);
    if (resource.Type === 'AWS::CloudFront::Distribution' && attribute === 'DomainName') return `${name}.cloudfront.net`;
    if (resource.Type === 'AWS::CloudFront::PublicKey' && attribute === 'Id') return name.toUpperCase();
    if (resource.Type === 'AWS::Cognito::UserPool' && attribute === 'ProviderURL') return `https://cognito-idp.${REGION}.amazonaws.com/${this.ref(logicalId)}`;
    if (resource.Type === 'AWS::Cognito::UserPool' && attribute === 'ProviderName') return `cognito-idp.${REGION}.amazonaws.com/${this.ref(logicalId)}`;
    if (resource.Type === 'AWS::Cognito::UserPool' && attribute === 'Arn') return `arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${this.ref(logicalId)}`;
    throw new Error(`GetAtt ${logicalId}.${attribute} (${resource.Type}) is not modelled`);
  }

  /** A template value with every intrinsic resolved. */
  resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v));
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [key, arg] = entries[0]!;
      if (key === 'Ref') return this.ref(arg as string);
      if (key === 'Fn::GetAtt') {
        const [id, attr] = Array.isArray(arg) ? (arg as [string, string]) : (String(arg).split('.') as [string, string]);
        return this.getAtt(id, attr);
      }
      if (key === 'Fn::Join') {
        const [separator, parts] = arg as [string, unknown[]];
        return parts.map((p) => String(this.resolve(p))).join(separator);
      }
      if (key === 'Fn::Select') {
        const [index, list] = arg as [number, unknown];
        return (this.resolve(list) as unknown[])[Number(index)];
      }
      if (key === 'Fn::Split') {
        const [separator, source] = arg as [string, unknown];
        return String(this.resolve(source)).split(separator);
      }
      if (key === 'Fn::Sub') {
        const [text, vars] = (Array.isArray(arg) ? arg : [arg, {}]) as [string, Record<string, unknown>];
        return text.replace(/\$\{([^}]+)\}/g, (_m, name: string) => {
          if (vars[name] !== undefined) return String(this.resolve(vars[name]));
          const [id, attr] = name.split('.');
          return attr ? this.getAtt(id!, attr) : this.ref(id!);
        });
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, this.resolve(v)]));
  }

  /** Resources of one type, by logical id. */
  ofType(type: string): [string, NonNullable<Template['Resources'][string]>][] {
    return Object.entries(this.template.Resources).filter(([, r]) => r.Type === type);
  }
}
