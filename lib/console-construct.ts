import { UPLOAD_CREATE_MEMORY_MB } from './memory-sizing';
import { Aspects, CfnElement, CfnOutput, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { HttpMethod, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AccountRecovery, Mfa, OAuthScope, StringAttribute, UserPool, UserPoolClient, UserPoolClientIdentityProvider } from 'aws-cdk-lib/aws-cognito';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { PROJECT_ROOT, ServiceFunction } from './service-function';
import { grantTable } from './grants';
import { CONSOLE_TABLE_ACCESS } from './table-access';
import { acknowledgeBucketFindings } from './nag-acknowledgements';
import { requireConsolePage } from './console-page';
import { pinLogicalId } from './stateful-ids';
import { CfnPolicy } from 'aws-cdk-lib/aws-iam';

export interface ConsoleConstructProps {
  api: HttpApi;
  table: ITableV2;
  environment: Record<string, string>;
  /** Read/write the files bucket and start the upload workflow (confirming a web upload does). */
  grantUploads: (fn: LambdaFunction) => void;
  /** Publish events (upload.created fires for web uploads too). */
  grantEmit: (fn: LambdaFunction) => void;
  /** Read the pagination cursor key (the console lists uploads). */
  grantCursorKey: (fn: LambdaFunction) => void;
  /** What the spam API function has (telephony settings, screenshots, sending codes): the spam page calls the same functions. */
  grantSpam: (fn: LambdaFunction) => void;
  /**
   * The files bucket: files over the HTTP API's 10 MB go from the browser straight to it through
   * the staging path's presigned POST, so it answers CORS for the console's origin only.
   */
  filesBucket: Bucket;
  /**
   * The files bucket's own origin (DataConstruct.filesBucketOrigin), for the page's CSP: built from
   * the bucket's deterministic name, so naming it does not make the distribution depend on the
   * bucket, which depends on the distribution through its CORS rule.
   */
  filesBucketOrigin: string;
  /** The Cognito hosted sign-in domain prefix (the stage's, lib/stage-names.ts). */
  domainPrefix: string;
  /** The built page (web/dist): synth stops with one line when it has no index.html (lib/console-page.ts). */
  pageDir: string;
}

/** The console's audience-free scope: Cognito access tokens carry the client id, which the authorizer checks. */
export const CONSOLE_OAUTH_SCOPES = ['openid', 'email'];

/**
 * The web console in AWS (docs/console.md):
 * - a Cognito user pool with its hosted sign-in (authorization code + PKCE, public client, no
 *   self sign-up, MFA required), to which a customer's SAML or OIDC provider can be federated;
 * - the console's API as /console/api/{proxy+} routes on the service's HTTP API behind its JWT
 *   authorizer (issuer = the pool, audience = the console's client): API keys never reach them;
 * - the built console (web/dist) in a private bucket behind CloudFront with origin access control,
 *   strict security headers, and /console/api/* on the same domain (no CORS needed).
 */
export class ConsoleConstruct extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly distribution: Distribution;
  readonly bucket: Bucket;
  readonly handler: ServiceFunction;

  constructor(scope: Construct, id: string, props: ConsoleConstructProps) {
    super(scope, id);
    const stack = Stack.of(this);

    this.bucket = new Bucket(this, 'Bucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });

    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { username: true, email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: { user_id: new StringAttribute({ mutable: false, minLen: 36, maxLen: 36 }) },
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(3) },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Kept when the stack is deleted (the console's users), not when its creation rolls back.
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    pinLogicalId(this.userPool, 'userPool');
    // The domain itself is deleted with the stack, so the stage's prefix is free for its next deploy.
    const domain = this.userPool.addDomain('HostedSignIn', { cognitoDomain: { domainPrefix: props.domainPrefix } });

    // The page posts large files to the files bucket, and its CSP names that bucket alone. The
    // bucket's CORS rule names this distribution, so the CSP must not refer to the bucket resource
    // (a dependency cycle): it uses the bucket's name, built from the stack name and
    // pseudo-parameters (lib/data-construct.ts).
    const website = this.distributionFor(props.api, domain.baseUrl(), [props.filesBucketOrigin]);
    this.distribution = website;
    const origin = `https://${website.distributionDomainName}`;
    this.client = this.userPool.addClient('ConsoleClient', {
      generateSecret: false,
      authFlows: {},
      preventUserExistenceErrors: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: [`${origin}/callback`],
        logoutUrls: [`${origin}/`],
      },
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(8),
      enableTokenRevocation: true,
    });

    // The console creates uploads from staged CSVs through the same code as the uploads API: same memory.
    this.handler = new ServiceFunction(this, 'ApiFunction', { entry: 'lambdas/functions/http/console.ts', description: 'Console API', environment: props.environment, memorySize: UPLOAD_CREATE_MEMORY_MB });
    // BatchWriteItem: stopping monitoring of a spam number removes its history rows in batches.
    grantTable(this.handler, props.table, CONSOLE_TABLE_ACCESS);
    props.grantUploads(this.handler);
    props.grantEmit(this.handler);
    props.grantCursorKey(this.handler);
    props.grantSpam(this.handler);
    // An owner's invitation creates the member's Cognito user (lambdas/console/cognito-inviter.ts);
    // AdminGetUser reads one that exists already. This pool only.
    this.handler.addEnvironment('CONSOLE_USER_POOL_ID', this.userPool.userPoolId);
    this.userPool.grant(this.handler, 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser');
    // Browsers upload to the files bucket from the console's page only: its one origin, POST (the
    // presigned POST form) and PUT, the content type as the only non-simple header.
    props.filesBucket.addCorsRule({
      allowedOrigins: [origin],
      allowedMethods: [HttpMethods.POST, HttpMethods.PUT],
      allowedHeaders: ['content-type'],
      exposedHeaders: ['ETag'],
      maxAge: 3600,
    });
    const authorizer = new HttpJwtAuthorizer('ConsoleJwt', this.userPool.userPoolProviderUrl, { jwtAudience: [this.client.userPoolClientId] });
    props.api.addRoutes({
      path: '/console/api/{proxy+}',
      methods: [HttpMethod.GET, HttpMethod.POST, HttpMethod.DELETE],
      integration: new HttpLambdaIntegration('ConsoleIntegration', this.handler),
      authorizer,
    });

    const page = requireConsolePage(props.pageDir, PROJECT_ROOT);
    // Cognito's discovery document names no sign-out or revocation endpoint: the page is told them
    // (web/src/auth.ts signs out with /logout, which ends the hosted session and returns at once).
    const config = {
      authority: this.userPool.userPoolProviderUrl,
      client_id: this.client.userPoolClientId,
      scope: CONSOLE_OAUTH_SCOPES.join(' '),
      logout_endpoint: `${domain.baseUrl()}/logout`,
      revocation_endpoint: `${domain.baseUrl()}/oauth2/revoke`,
    };
    const deployment = new BucketDeployment(this, 'Deploy', {
      destinationBucket: this.bucket,
      sources: [Source.asset(page), Source.jsonData('console/config.json', config)],
      distribution: website,
      distributionPaths: ['/index.html', '/console/config.json'],
      memoryLimit: 256,
      // Its log group is one of the stack's, kept a month like the others and removed with the stack
      // (Lambda's implicit one would be kept forever, and outlive `cdk destroy`).
      logGroup: new LogGroup(this, 'DeployLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
      // Deleting the stack empties the console bucket first, so the bucket (nothing in it but
      // the built page) is deleted with it instead of stopping the teardown.
      retainOnDelete: false,
    });
    // CDK's deployment function (a stack-level singleton) copies the bundle from the CDK asset
    // bucket into the console bucket: object wildcards on exactly those two buckets.
    const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const bucketId = stack.getLogicalId(this.bucket.node.defaultChild as CfnElement);
    for (const resource of [`arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${account}-${region}/*`, `<${bucketId}.Arn>/*`]) {
      Validations.of(deployment.handlerRole).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${resource}]`,
        reason: 'The CDK BucketDeployment function reads the bundle from the CDK asset bucket and writes and prunes objects of the console bucket only: object wildcards on exactly those two buckets.',
      });
    }

    this.acknowledge();
    acknowledgeBucketFindings(this.bucket);
    // CDK's own deployment function (a stack singleton): its runtime and managed log policy are CDK's.
    Validations.of(deployment.handlerRole).acknowledge({ id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason: "CDK's BucketDeployment function writes only its own logs with the managed basic execution policy." });
    // CDK grants the deployment's CloudFront invalidation on `*`; invalidations take the
    // distribution's ARN, so the grant is narrowed to this one distribution.
    const distributionArn = `arn:${stack.partition}:cloudfront::${stack.account}:distribution/${website.distributionId}`;
    Validations.of(deployment.handlerRole).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: "CDK's BucketDeployment writes its CloudFront invalidation grant on *; an override narrows it to this distribution's ARN in the template (test/deployed/least-privilege.test.ts checks), which cdk-nag does not read." });
    Aspects.of(stack).add({
      visit(node: IConstruct) {
        if (!(node instanceof CfnPolicy) || !node.node.path.includes('CDKBucketDeployment')) return;
        const doc = stack.resolve(node.policyDocument) as { Statement: { Action: string | string[] }[] };
        doc.Statement.forEach((statement, i) => {
          if ([statement.Action].flat().some((a) => a.startsWith('cloudfront:'))) node.addPropertyOverride(`PolicyDocument.Statement.${i}.Resource`, distributionArn);
        });
      },
    });
    const deployer = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (deployer) Validations.of(deployer).acknowledge({ id: 'AwsSolutions-L1', reason: "CDK's BucketDeployment function: its runtime is set by the CDK version, and it runs only at deploy time." });
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
      Validations.of(deployment.handlerRole).acknowledge({ id: `AwsSolutions-IAM5[Action::${action}]`, reason: 'CDK BucketDeployment copies and prunes the console bundle: these actions only on the CDK asset bucket and the console bucket.' });
    }
    new CfnOutput(stack, 'ConsoleUrl', { value: origin });
    new CfnOutput(stack, 'ConsoleUserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(stack, 'ConsoleHostedSignIn', { value: domain.baseUrl() });
  }

  private distributionFor(api: HttpApi, signInOrigin: string, uploadOrigins: string[]): Distribution {
    const stack = Stack.of(this);
    // App routes (/uploads/…, /callback) have no file: they get index.html. Only paths without an
    // extension are rewritten, so a missing asset is still a 404 and the API behaviour is untouched.
    const spaRoutes = new CloudFrontFunction(this, 'SpaRoutes', {
      code: FunctionCode.fromInline(
        "function handler(event){var r=event.request;var last=r.uri.split('/').pop();if(last.indexOf('.')===-1){r.uri='/index.html';}return r;}",
      ),
    });
    const headers = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            `connect-src 'self' https://cognito-idp.${stack.region}.amazonaws.com ${signInOrigin} ${uploadOrigins.join(' ')}`,
            `form-action 'self' ${signInOrigin}`,
            "frame-ancestors 'none'",
            "base-uri 'none'",
            "manifest-src 'self'",
          ].join('; '),
        },
        strictTransportSecurity: { override: true, accessControlMaxAge: Duration.days(365), includeSubdomains: true },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: HeadersFrameOption.DENY },
        referrerPolicy: { override: true, referrerPolicy: HeadersReferrerPolicy.NO_REFERRER },
      },
    });
    return new Distribution(this, 'Distribution', {
      comment: 'Phone validation web console',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: spaRoutes, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/console/api/*': {
          origin: new HttpOrigin(`${api.apiId}.execute-api.${stack.region}.amazonaws.com`),
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: headers,
        },
      },
    });
  }

  private acknowledge(): void {
    const ack = (id: string, reason: string) => Validations.of(this).acknowledge({ id, reason });
    ack('AwsSolutions-COG8', 'The Plus feature plan (threat protection) is the operator\'s choice and cost; MFA is required and accounts are created only by the operator.');
    ack('AwsSolutions-CFR1', 'The console serves the organization\'s own users wherever they are; no geographic restriction applies to a customer console.');
    ack('AwsSolutions-CFR2', 'AWS WAF is the operator\'s choice and cost; the console\'s API is authenticated by the JWT authorizer and rate limited by the API itself.');
    ack('AwsSolutions-CFR3', 'CloudFront standard logs need a log bucket with ACLs; request logs of the console API are in the HTTP API access logs.');
    ack('AwsSolutions-CFR4', 'The distribution uses the default *.cloudfront.net certificate, whose TLS policy CloudFront fixes (a minimum protocol version has no effect without a custom certificate, and CDK warns on one); a custom domain with a TLS 1.2 policy is the operator’s choice.');
  }
}
