import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { authenticate } from '../lambdas/auth/authenticate';
import { AuthenticationFailed } from '../lambdas/platform/domain-errors';
import { toHttpError } from '../lambdas/platform/http/error-response';
import { serverAnswer } from './http-answers';
import type { Tenant } from './tenant-budgets';

/** Whose budget a request's body is read against, or the answer that refuses it before its body is read. */
export type Admission = { tenant: Tenant } | { refusal: APIGatewayProxyStructuredResultV2 };

export type Admit = (authorization: string | undefined) => Promise<Admission>;

/**
 * The API key of a request that carries a body, checked before the body is read, with the API's
 * own authentication (lambdas/auth/authenticate.ts: the same rules and detail strings; the
 * handler's own check then finds the key in the principal cache). A refused key is answered 401
 * without reading the body. A key that could not be checked (the table did not answer) is left to
 * the handler, which checks it again and answers; its body counts as not authenticated meanwhile.
 */
export const apiKeyAdmission: Admit = async (authorization) => {
  try {
    return { tenant: (await authenticate(authorization)).organizationId };
  } catch (error) {
    if (!(error instanceof AuthenticationFailed)) return { tenant: null };
    const http = toHttpError(error)!;
    return { refusal: serverAnswer(http.status, http.detail, http.headers) };
  }
};
