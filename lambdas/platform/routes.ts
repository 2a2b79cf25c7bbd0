import * as z from './zod';
import type { RouteSpec } from './http/route-spec';

const CheckOutcome = z.lazySchema(() => z
  .object({
    status: z.enum(['ok', 'failed']),
    ms: z.number().check(z.int(), z.describe('how long the dependency took to answer (or to fail)')),
    error: z.optional(z.string().check(z.describe('on failure: the error name or code only (e.g. ResourceNotFoundException, ECONNREFUSED, timeout)'))),
  })
  .check(z.meta({ id: 'DependencyCheck' })));
const Checks = z.lazySchema(() => z.object({ table: CheckOutcome, file_store: CheckOutcome }).check(z.describe('one entry per dependency: the table and the file store')));

export const NotReadyError = z.lazySchema(() => z
  .object({ detail: z.object({ error: z.literal('not_ready'), message: z.string().check(z.describe('names the dependencies that failed')), checks: Checks }) })
  .check(z.meta({ id: 'NotReadyError' })));

/** Readiness checks never wait longer than this for a dependency (a load balancer's probe times out at about 5 s). */
export const READINESS_TIMEOUT_MS = 2_000;

export const platformRoutes = {
  openapi: {
    method: 'GET',
    path: '/openapi.json',
    fn: 'platform',
    operationId: 'getOpenApi',
    summary: 'The OpenAPI 3.1 document of this API (no authentication)',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'OpenAPI document', schema: z.lazySchema(() => z.record(z.string(), z.unknown())) } },
  },
  health: {
    method: 'GET',
    path: '/health',
    fn: 'platform',
    operationId: 'getHealth',
    summary: 'Liveness: the API answers (no authentication, no dependency asked)',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'The API process answers', schema: z.lazySchema(() => z.object({ status: z.literal('ok') })) } },
  },
  ready: {
    method: 'GET',
    path: '/ready',
    fn: 'platform',
    operationId: 'getReadiness',
    summary: 'Readiness: the table and the file store answer (no authentication)',
    tags: ['meta'],
    auth: false,
    responses: {
      200: { description: 'Every dependency answered', schema: z.lazySchema(() => z.object({ status: z.literal('ready'), checks: Checks })) },
      503: { description: 'A dependency did not answer within 2 s or failed; `detail.checks` says which', schema: NotReadyError },
    },
  },
} satisfies Record<string, RouteSpec>;
