// The one door to zod in lambdas/: zod/mini, whose functions a bundle keeps only when it calls
// them (~32 KB per bundle, against ~97 KB for classic zod, whose methods all ride on every schema:
// docs/performance.md), with the English messages classic zod gives by default, so errors read the same.
import { config, lazy } from 'zod/mini';
import type { ZodMiniLazy, ZodMiniType } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

// The functions lambdas/ calls, by name, and every type: not `export * from 'zod/mini'`. Through
// zod/mini's barrel, every entry reached zod's JSON Schema generator, which the barrel also
// re-exports, and esbuild's code splitting then put it (~20 KB) in the entry's load wherever the
// OpenAPI document's lazy chunk uses it; the build (tools/deep-imports.mjs) takes each name below
// from the file that defines it. The generator has its own door, ./zod-json-schema.ts.
export type * from 'zod/mini';
export { _default, array, boolean, coerce, custom, describe, email, enum, gte, int, iso, lazy, literal, looseObject, lte, maxLength, meta, minLength, nonnegative, null, nullable, nullish, number, object, optional, partialRecord, pipe, prefault, record, refine, regex, strictObject, string, toLowerCase, transform, trim, union, unknown, url, uuid } from 'zod/mini';

/**
 * A schema built at its first use (a parse, the OpenAPI document), once, instead of at import:
 * building a zod schema costs tens of µs per part, and a module's top level held hundreds of parts
 * that most cold starts never parse with (docs/performance.md, "Cold imports, sixth step"). It
 * validates, errs and documents as the schema `build` returns (a `z.lazy` around it). Leaves that
 * other schemas read by value (enums as record keys or union discriminators, `.shape`) stay eager.
 */
export function lazySchema<T extends ZodMiniType>(build: () => T): ZodMiniLazy<T> {
  let built: T | undefined;
  // Memoized here as well as by zod: its JSON Schema generator calls the getter itself.
  return lazy(() => (built ??= build()));
}

/** The schema a `lazySchema` holds, built now: for reading its `.shape` inside another lazy schema. */
export const builtSchema = <T extends ZodMiniType>(schema: ZodMiniLazy<T>): T => schema._zod.innerType;

/** The field names of an object schema, built if it is a `lazySchema`; none for any other schema. */
export function objectFieldNames(schema: ZodMiniType | undefined): string[] {
  const built: unknown = schema?._zod.def.type === 'lazy' ? (schema as ZodMiniLazy)._zod.innerType : schema;
  const shape = (built as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}
