import { CfnOutput, RemovalPolicy } from 'aws-cdk-lib';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import type { ApiFunctionName, RouteSpec } from '../lambdas/platform/http/route-spec';
import { ServiceFunction } from './service-function';
import { acknowledgeApiFindings } from './nag-acknowledgements';

export interface ApiConstructProps {
  routes: readonly RouteSpec[];
  environment: Record<string, string>;
  /** Per-function overrides (memory, timeout) for the heavier handlers. */
  sizing?: Partial<Record<ApiFunctionName, { memorySize?: number }>>;
  /** The stage's throttle for every route (requests per second; stage config `apiThrottle`). */
  throttle?: { rateLimit: number; burstLimit: number };
}

/**
 * The HTTP API and one Lambda per API function, built from the same route table the local server
 * and the OpenAPI document use. Anything no route matches goes to the platform function, which
 * answers 404/405 in the service's error envelope.
 */
export class ApiConstruct extends Construct {
  readonly api: HttpApi;
  readonly functions = new Map<ApiFunctionName, ServiceFunction>();

  constructor(scope: Construct, id: string, props: ApiConstructProps) {
    super(scope, id);
    const names = new Set<ApiFunctionName>(['platform', ...props.routes.map((r) => r.fn)]);
    for (const name of names) {
      this.functions.set(
        name,
        new ServiceFunction(this, `${capitalize(name)}Function`, {
          entry: `lambdas/functions/http/${name}.ts`,
          description: `API: ${name}`,
          environment: props.environment,
          memorySize: props.sizing?.[name]?.memorySize,
        }),
      );
    }
    const integrations = new Map([...this.functions].map(([name, fn]) => [name, new HttpLambdaIntegration(`${capitalize(name)}Integration`, fn)]));

    this.api = new HttpApi(this, 'HttpApi', {
      description: 'Phone validation service API',
      defaultIntegration: integrations.get('platform'),
      corsPreflight: { allowOrigins: ['*'], allowHeaders: ['authorization', 'content-type'], allowMethods: [CorsHttpMethod.ANY] },
      createDefaultStage: false,
    });
    // Access logs: one JSON line per request (request id, route, status, latency) for on-call.
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs), format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)) },
      // A flood answers 429 at the edge before it reaches (and bills) a function; per-key limits sit below it.
      throttle: props.throttle,
    });
    for (const route of props.routes) {
      this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration: integrations.get(route.fn)! });
    }
    acknowledgeApiFindings(this.api);
    new CfnOutput(scope, 'ApiUrl', { value: this.api.apiEndpoint });
  }
}

/**
 * One JSON object per request (CloudWatch Logs Insights reads its fields without parsing): the
 * request id a 500 body carries, the route and status, latency, the function's own error.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
} as const;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
