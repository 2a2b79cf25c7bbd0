import * as z from './zod';
import type { RouteSpec } from './http/route-spec';

export const platformRoutes = {
  openapi: {
    method: 'GET',
    path: '/openapi.json',
    fn: 'platform',
    operationId: 'getOpenApi',
    summary: 'The OpenAPI 3.1 document of this API (no authentication)',
    tags: ['meta'],
    auth: false,
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  },
} satisfies Record<string, RouteSpec>;
