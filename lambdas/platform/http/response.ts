import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export interface JsonResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface BinaryResult {
  status: number;
  contentType: string;
  bytes: Buffer;
  headers?: Record<string, string>;
}

export type OperationResult = JsonResult | BinaryResult;

export const ok = (body: unknown, headers?: Record<string, string>): JsonResult => ({ status: 200, body, headers });
export const created = (body: unknown): JsonResult => ({ status: 201, body });

export function toApiGatewayResult(result: OperationResult, requestId: string): APIGatewayProxyStructuredResultV2 {
  if ('bytes' in result) {
    return {
      statusCode: result.status,
      headers: { 'content-type': result.contentType, 'x-request-id': requestId, ...result.headers },
      body: result.bytes.toString('base64'),
      isBase64Encoded: true,
    };
  }
  return {
    statusCode: result.status,
    headers: {
      ...(result.body === undefined ? {} : { 'content-type': 'application/json' }),
      'x-request-id': requestId,
      ...result.headers,
    },
    body: result.body === undefined ? '' : JSON.stringify(result.body),
  };
}
