import type { core, ZodMiniType as ZodType } from '../zod';
import { InvalidInput, NotFound } from '../domain-errors';

/** Zod issues as one readable sentence, for the string form of the error envelope. */
export function describeZodError(error: core.$ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export function parseOr400<S extends ZodType>(schema: S, value: unknown, what: string): ReturnType<S['parse']> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInput(`Invalid ${what}: ${describeZodError(result.error)}`);
  return result.data as ReturnType<S['parse']>;
}

/**
 * Path parameters are resource ids: a value that does not fit names no resource, so it is a 404 with
 * the schema's own message (the same detail as an unknown id), never a 400.
 */
export function parseParamsOr404<S extends ZodType>(schema: S, value: unknown): ReturnType<S['parse']> {
  const result = schema.safeParse(value);
  if (!result.success) throw new NotFound(result.error.issues[0]?.message ?? 'Not found');
  return result.data as ReturnType<S['parse']>;
}
