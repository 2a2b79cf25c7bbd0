import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { apiHandler } from '../../../lambdas/api/api-handler';
import { lazyOperation, operation, type BoundOperation } from '../../../lambdas/api/operation';
import { ok } from '../../../lambdas/platform/http/response';
import type { RouteSpec } from '../../../lambdas/platform/http/route-spec';
import * as z from '../../../lambdas/platform/zod';

// An operation loaded at its route's first request (lambdas/api/operation.ts, lazyOperation): the
// HTTP stack routes and authenticates on the route without its schemas, loads nothing for a request
// it refuses before that, and validates what it accepts with the loaded route's schemas.

const stub = (method: 'GET' | 'POST', path: string, auth: boolean): RouteSpec => ({ method, path, fn: 'platform', operationId: path, summary: path, tags: [], auth, responses: {} });
const echo = stub('POST', '/echo/{n}', false);
const full = { ...echo, request: { params: z.object({ n: z.string().check(z.regex(/^\d+$/)) }), body: z.strictObject({ word: z.string().check(z.maxLength(5)) }) } };
const keyed = stub('GET', '/keyed', true);

function setup(serves: BoundOperation[] = [operation(full, async ({ params, body }) => ok({ n: params.n, word: body.word }))]) {
  const loads: string[] = [];
  const load = (name: string) => async () => {
    loads.push(name);
    return serves;
  };
  const handler = apiHandler([lazyOperation(echo, load('echo')), lazyOperation(keyed, load('keyed'))], { routeByPath: true });
  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const event = { routeKey: '$default', rawPath: path, headers: { 'content-type': 'application/json', ...headers }, body, isBase64Encoded: false, requestContext: { requestId: 'r', http: { method } } } as unknown as APIGatewayProxyEventV2;
    const result = await handler(event, { awsRequestId: 'r' } as Context);
    return { status: result.statusCode, body: JSON.parse(String(result.body)) as Record<string, unknown>, headers: result.headers ?? {} };
  };
  return { call, loads };
}

describe('lazyOperation', () => {
  it('loads the operation at its request and runs it with the loaded route', async () => {
    const { call, loads } = setup();
    expect(await call('POST', '/echo/12', JSON.stringify({ word: 'hi' }))).toMatchObject({ status: 200, body: { n: '12', word: 'hi' } });
    expect(loads).toEqual(['echo']);
  });

  it('validates params and body with the loaded route: 404 for a bad id, 400 for a hostile body', async () => {
    const { call } = setup();
    expect((await call('POST', '/echo/abc', JSON.stringify({ word: 'hi' }))).status).toBe(404);
    expect((await call('POST', '/echo/1', JSON.stringify({ word: 'much too long' }))).status).toBe(400);
    expect((await call('POST', '/echo/1', JSON.stringify({ word: 'hi', extra: true }))).status).toBe(400);
    expect((await call('POST', '/echo/1', '{"word":')).body).toMatchObject({ detail: 'Malformed JSON body' });
    expect((await call('POST', '/echo/1', JSON.stringify({ word: 'hi' }), { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('loads nothing for a request refused before validation: no such path, another method, no API key', async () => {
    const { call, loads } = setup();
    expect((await call('POST', '/nowhere', '{}')).status).toBe(404);
    const other = await call('GET', '/echo/1');
    expect(other.status).toBe(405);
    expect(other.headers.allow).toBe('POST');
    expect((await call('GET', '/keyed')).status).toBe(401);
    expect(loads).toEqual([]);
  });

  it('answers 500 in the envelope when what was loaded does not serve the route', async () => {
    const { call } = setup([operation(stub('POST', '/other', false), async () => ok({}))]);
    const answer = await call('POST', '/echo/1', JSON.stringify({ word: 'hi' }));
    expect(answer.status).toBe(500);
    expect(answer.body).toHaveProperty('detail');
  });
});
