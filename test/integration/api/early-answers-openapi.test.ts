import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AWS_LIMITS, startLocalApi, type ApiLambda, type LocalApi } from '../../../local/api-gateway-server';
import { apiKeyAdmission, type Admit } from '../../../local/request-admission';
import { ROUTES } from '../../../lambdas/api/routes';
import { openApiDocument } from '../../../lambdas/api/openapi-document';
import { dribbleBody, firstAnswer, rawClient } from '../../support/raw-client';
import { responseValidator, type ResponseValidator } from '../../support/openapi-validator';

// The answers the local server makes itself on a body route, before or instead of a function
// (local/request-bodies.ts, local/request-admission.ts, local/api-gateway-server.ts), held to the
// OpenAPI document by the suite's response validator: 413 for a declared length over the limit,
// for a streamed body that grows past it and for a Lambda event over 6 MB; 401 for a refused key
// before its body is read (the API's own check); 408 for a body too slow. No function runs.

const seen: APIGatewayProxyEventV2[] = [];
const never: ApiLambda = async (event) => {
  seen.push(event);
  return { statusCode: 200, body: '' };
};
const functions = { platform: never, credits: never, uploads: never, contacts: never, webhooks: never, spam: never };
// One key admitted without the table (its organization named here); any other goes through the
// API's real admission, which refuses a malformed key without asking the table.
const admit: Admit = async (authorization) => (authorization === `Bearer svc_live_${'g'.repeat(32)}` ? { tenant: 'org-a' } : apiKeyAdmission(authorization));
const GOOD = { authorization: `Bearer svc_live_${'g'.repeat(32)}` };
const MB = 1024 * 1024;

let api: LocalApi;
let validator: ResponseValidator;
beforeAll(async () => {
  validator = responseValidator(openApiDocument());
  api = await startLocalApi({
    routes: ROUTES,
    functions,
    port: 0,
    host: '127.0.0.1',
    maxBodyBytes: AWS_LIMITS.httpApiBodyBytes,
    maxPayloadBytes: AWS_LIMITS.lambdaPayloadBytes,
    admit,
    minBodyRate: { bytesPerSecond: 1024, windowMs: 400 },
    lingerMs: 1_000,
  });
});
afterAll(() => api.close());

async function checked(method: string, path: string, init: RequestInit): Promise<{ status: number; problems: string[]; detail: unknown }> {
  const res = await fetch(`${api.url}${path}`, { method, ...init });
  const body = Buffer.from(await res.arrayBuffer());
  const problems = validator.check(method, path, { status: res.status, headers: res.headers, body });
  return { status: res.status, problems, detail: (JSON.parse(body.toString()) as { detail: unknown }).detail };
}

describe('answers the local server makes itself match the OpenAPI document', () => {
  it('413 for a multipart body whose declared length is over 10 MB, answered before it is read', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(11 * MB)]), 'big.csv');
    const answer = await checked('POST', '/api/v1/uploads', { body: form, headers: GOOD });
    expect(answer.status).toBe(413);
    expect(answer.detail).toMatch(/exceeds API Gateway's limit of 10485760 bytes; .*\/api\/v1\/uploads\/staging/);
    expect(answer.problems).toEqual([]);
  });

  it('413 for a streamed body that grows past the limit', async () => {
    const piece = new Uint8Array(MB);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 12) controller.enqueue(piece);
        else controller.close();
      },
    });
    const answer = await checked('POST', '/api/v2/contacts', { body, duplex: 'half', headers: { ...GOOD, 'content-type': 'application/json' } } as RequestInit);
    expect(answer.status).toBe(413);
    expect(answer.problems).toEqual([]);
  });

  it('413 for a body under 10 MB whose Lambda event would be over 6 MB', async () => {
    const json = JSON.stringify({ phone_numbers: Array.from({ length: 500_000 }, (_, i) => `+1212555${String(i % 10_000).padStart(4, '0')}`) });
    expect(json.length).toBeGreaterThan(6 * MB);
    expect(json.length).toBeLessThan(10 * MB);
    const answer = await checked('POST', '/api/v1/uploads', { body: json, headers: { ...GOOD, 'content-type': 'application/json' } });
    expect(answer.status).toBe(413);
    expect(answer.detail).toMatch(/Request too large for a Lambda function/);
    expect(answer.problems).toEqual([]);
  });

  it('401 for a refused key, its 9 MB body never read', async () => {
    const answer = await checked('POST', '/api/v1/contacts', { body: new Uint8Array(9 * MB), headers: { authorization: 'Bearer nope', 'content-type': 'application/json' } });
    expect(answer.status).toBe(401);
    expect(answer.detail).toBe('Invalid API key format');
    expect(answer.problems).toEqual([]);
  });

  it('408 for a body slower than the minimum rate', async () => {
    const port = Number(new URL(api.url).port);
    const client = rawClient(port, `POST /api/v1/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: ${GOOD.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${MB}\r\n\r\n`);
    dribbleBody(client, 100);
    await client.closed;
    const answer = firstAnswer(client.received());
    expect(answer?.status).toBe(408);
    const headers = new Headers(
      answer!.headers
        .split('\r\n')
        .slice(1)
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]),
    );
    const problems = validator.check('POST', '/api/v1/webhooks', { status: 408, headers, body: Buffer.from(JSON.stringify(answer!.body)) });
    expect(problems).toEqual([]);
  });

  it('no function ran for any of them', () => {
    expect(seen).toEqual([]);
  });
});
