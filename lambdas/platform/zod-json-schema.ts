// zod's JSON Schema generator, apart from ./zod.ts: only the OpenAPI documents (./openapi.ts, loaded
// on first use) run it, and through ./zod.ts it would sit in every entry's load (see there).
export { toJSONSchema } from 'zod/mini';
