import { describe, expect, it } from 'vitest';
import { Match } from 'aws-cdk-lib/assertions';
import { nagErrors, synthStack } from '../support/stack';

// The console's AWS pieces (lib/console-construct.ts): user pool and hosted sign-in, the JWT
// authorizer on the console's routes only, the private bucket behind CloudFront with OAC.

describe('web console in the template', () => {
  const { template } = synthStack();

  it('has a user pool without self sign-up, MFA required, a strong password policy and a hosted sign-in domain', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'ON',
      Policies: { PasswordPolicy: Match.objectLike({ MinimumLength: 12, RequireSymbols: true, RequireNumbers: true }) },
    });
    template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
  });

  it('has a public client for authorization code only (PKCE), no secret, no password flows', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email'],
      PreventUserExistenceErrors: 'ENABLED',
      ExplicitAuthFlows: Match.absent(),
      CallbackURLs: [Match.objectLike({ 'Fn::Join': Match.arrayWith([Match.arrayWith(['/callback'])]) })],
    });
  });

  it('guards /console/api/* with a JWT authorizer for the pool and the console client; API routes keep none', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: { Audience: [Match.anyValue()], Issuer: Match.anyValue() },
    });
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties as { RouteKey: string; AuthorizationType?: string });
    const consoleRoutes = routes.filter((r) => r.RouteKey.includes('/console/api/'));
    expect(consoleRoutes.map((r) => r.RouteKey).sort()).toEqual(['DELETE /console/api/{proxy+}', 'GET /console/api/{proxy+}', 'POST /console/api/{proxy+}']);
    for (const route of consoleRoutes) expect(route.AuthorizationType).toBe('JWT');
    for (const route of routes.filter((r) => r.RouteKey.startsWith('GET /api/') || r.RouteKey.startsWith('POST /api/'))) expect(route.AuthorizationType ?? 'NONE').toBe('NONE');
  });

  it('serves the bundle from a private bucket through CloudFront with origin access control and strict headers', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultRootObject: 'index.html',
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https' }),
        CacheBehaviors: [Match.objectLike({ PathPattern: '/console/api/*', ViewerProtocolPolicy: 'https-only' })],
        Origins: Match.arrayWith([Match.objectLike({ S3OriginConfig: { OriginAccessIdentity: '' }, OriginAccessControlId: Match.anyValue() })]),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          FrameOptions: { Override: true, FrameOption: 'DENY' },
          StrictTransportSecurity: Match.objectLike({ Override: true }),
        }),
      }),
    });
    const csp = JSON.stringify(Object.values(template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]);
    expect(csp).toContain("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:");
    expect(csp).toContain("frame-ancestors 'none'");
    // The console bucket: no public access, reachable only by the distribution (OAC condition).
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy')).map((p) => JSON.stringify(p.Properties.PolicyDocument));
    expect(policies.some((p) => p.includes('cloudfront.amazonaws.com') && p.includes('AWS:SourceArn'))).toBe(true);
  });

  it('has no unsuppressed cdk-nag AwsSolutions errors', () => {
    expect(nagErrors()).toEqual([]);
  });
});
