import type { ZodError, ZodType } from 'zod';
import { badRequest } from '../errors';

/** Zod issues as one readable sentence, for the string form of the error envelope. */
export function describeZodError(error: ZodError): string {
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
  if (!result.success) throw badRequest(`Invalid ${what}: ${describeZodError(result.error)}`);
  return result.data as ReturnType<S['parse']>;
}
