import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/**
 * `POST /api/v1/uploads` naming a staged CSV, as API Gateway (HTTP API, payload 2.0) hands it to
 * the uploads function, and the invocation's context.
 */
export function stagedCreateEvent(apiKey: string, stagedUploadId: string, fields: Record<string, string>): { event: APIGatewayProxyEventV2; context: Context } {
  const body = JSON.stringify({ staged_upload_id: stagedUploadId, ...fields });
  const now = new Date();
  const requestId = randomUUID();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: 'POST /api/v1/uploads',
    rawPath: '/api/v1/uploads',
    rawQueryString: '',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', host: 'bench.local', 'x-forwarded-proto': 'https' },
    isBase64Encoded: false,
    body,
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'bench.local',
      domainPrefix: 'bench',
      http: { method: 'POST', path: '/api/v1/uploads', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId,
      routeKey: 'POST /api/v1/uploads',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
  return { event, context: { awsRequestId: requestId, functionName: 'bench-uploads' } as Context };
}

/** The function's answer to a create: its id, or an error naming the status. */
export function createdId(result: unknown): string {
  const { statusCode, body } = result as { statusCode: number; body?: string };
  if (statusCode !== 200) throw new Error(`create answered ${statusCode}: ${String(body).slice(0, 500)}`);
  return (JSON.parse(String(body)) as { id: string }).id;
}
