import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { toHttpError } from '../platform/http/error-response';
import { logger } from '../platform/logger';

/**
 * Every failure leaves as `{ "detail": ... }`. Known errors keep their status; anything else is a
 * 500 that shows the client only the request id, with the stack in the log under the same id.
 */
export function errorEnvelope(): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context> {
  return {
    before: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      logger.resetKeys();
      logger.appendKeys({ request_id: requestId, route: request.event.routeKey });
    },
    after: (request) => {
      logger.info('request', { status: request.response?.statusCode, path: request.event.rawPath });
    },
    onError: (request) => {
      const requestId = request.event.requestContext?.requestId ?? request.context.awsRequestId;
      const error = toHttpError(request.error);
      if (error) {
        if (error.status >= 500) logger.error('request failed', { status: error.status, error: request.error as Error });
        else logger.info('request', { status: error.status, path: request.event.rawPath, detail: error.detail });
        request.response = {
          statusCode: error.status,
          headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...error.headers },
          body: JSON.stringify({ detail: error.detail }),
        };
        return;
      }
      logger.error('unhandled error', { error: request.error as Error });
      request.response = {
        statusCode: 500,
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        body: JSON.stringify({ detail: `Internal server error (request id ${requestId})` }),
      };
    },
  };
}
