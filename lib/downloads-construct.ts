import { CfnOutput, Validations } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, Distribution, KeyGroup, OriginRequestPolicy, OriginRequestQueryStringBehavior, PublicKey, ViewerProtocolPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { grantSecretValue } from './grants';
import { pinLogicalId } from './stateful-ids';
import { publicKeyFingerprint } from '../lambdas/platform/cloudfront-key-ids';

export interface DownloadsConstructProps {
  filesBucket: Bucket;
  /** PEM public key of the operator's CloudFront key pair (stage `downloadsPublicKeyFile`; tests: context `downloadsPublicKey`). */
  publicKeyPem?: string;
  /** A second one, while a key pair is rotated (stage `downloadsSecondPublicKeyFile`). */
  secondPublicKeyPem?: string;
}

/**
 * Signed download links that stay valid for the promised hour: a CloudFront distribution in front
 * of the files bucket (origin access control; only signed URLs of the key group are served) and a
 * secret for the private key, which the operator puts in after deploying.
 */
export class DownloadsConstruct extends Construct {
  readonly distribution: Distribution;
  readonly signingKey: Secret;
  /** `<key id>=<fingerprint>` of every key of the group (lambdas/platform/cloudfront-key-ids.ts). */
  private readonly keyIds: string;

  constructor(scope: Construct, id: string, props: DownloadsConstructProps) {
    super(scope, id);
    // Each key keeps its construct id while it is in the stage file, so its CloudFront key id (made
    // when the key is created) never changes under links already signed with it.
    const keys = [
      ...(props.publicKeyPem ? [{ pem: props.publicKeyPem, key: new PublicKey(this, 'SigningPublicKey', { encodedKey: props.publicKeyPem, comment: 'Verifies download links' }) }] : []),
      ...(props.secondPublicKeyPem ? [{ pem: props.secondPublicKeyPem, key: new PublicKey(this, 'SigningPublicKeySecond', { encodedKey: props.secondPublicKeyPem, comment: 'Verifies download links (the second key, while rotating)' }) }] : []),
    ];
    if (!keys.length) throw new Error('DownloadsConstruct needs a public key');
    this.keyIds = keys.map(({ pem, key }) => `${key.publicKeyId}=${publicKeyFingerprint(pem)}`).join(',');
    const keyGroup = new KeyGroup(this, 'SigningKeys', { items: keys.map(({ key }) => key) });
    this.distribution = new Distribution(this, 'Downloads', {
      comment: 'Signed download links to upload files',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(props.filesBucket),
        trustedKeyGroups: [keyGroup],
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        // The signed link names the file (response-content-disposition, RFC 6266); S3 honours it
        // on the OAC-signed origin request only if CloudFront forwards it.
        originRequestPolicy: new OriginRequestPolicy(this, 'DownloadName', {
          comment: 'Forwards the file name of signed download links to S3',
          queryStringBehavior: OriginRequestQueryStringBehavior.allowList('response-content-disposition'),
        }),
      },
    });
    this.signingKey = new Secret(this, 'SigningPrivateKey', { description: 'PEM private key of the CloudFront key pair that signs download links' });
    pinLogicalId(this.signingKey, 'downloadsSigningKey');
    for (const [rule, reason] of [
      ['AwsSolutions-CFR1', 'Customers download from anywhere; links are signed and expire after an hour.'],
      ['AwsSolutions-CFR2', 'Only signed GETs of private files are served; a WAF adds cost without protecting anything further.'],
      ['AwsSolutions-CFR3', 'Downloads are counted in the table (export_count); CloudFront access logs are the operator’s choice.'],
      ['AwsSolutions-CFR4', 'The default *.cloudfront.net certificate; a custom domain with TLS 1.2 policy is the operator’s choice.'],
      ['AwsSolutions-SMG4', 'The key pair is created and rotated by the operator in CloudFront; there is no rotation Lambda for it.'],
    ] as const) {
      Validations.of(this).acknowledge({ id: rule, reason });
    }
    new CfnOutput(this, 'SigningKeySecret', { value: this.signingKey.secretArn, description: 'Put the CloudFront private key (PEM) here' });
  }

  /** What a function that hands out download links needs. */
  grantSign(fn: LambdaFunction): void {
    fn.addEnvironment('DOWNLOADS_CLOUDFRONT_DOMAIN', this.distribution.distributionDomainName);
    fn.addEnvironment('DOWNLOADS_CLOUDFRONT_KEY_IDS', this.keyIds);
    fn.addEnvironment('DOWNLOADS_SIGNING_KEY_SECRET_ARN', this.signingKey.secretArn);
    grantSecretValue(fn, this.signingKey);
  }
}
