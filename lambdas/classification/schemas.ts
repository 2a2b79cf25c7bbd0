import * as z from '../platform/zod';
import { ANSWER_INTENTS, IDENTITY_BANDS, TIERS } from './vocabulary';

// The result vocabularies as schemas, named in the OpenAPI document so a generated client gets
// them as enums: contacts and uploads describe their results with them.

export const AnswerIntent = z.enum(ANSWER_INTENTS).check(z.meta({ id: 'AnswerIntent', description: 'How the number is likely to behave when called' }));

export const IdentityBand = z.enum(IDENTITY_BANDS).check(z.meta({ id: 'IdentityBand', description: 'Whether the number belongs to the named contact; Unknown: no signal either way' }));

/** The nine tiers and, without identity, the Answer Intent values (`Unknown` is in both). */
export const ServiceStatus = z
  .enum([...new Set([...TIERS, ...ANSWER_INTENTS])])
  .check(z.meta({ id: 'ServiceStatus', description: 'With identity, one of the nine tiers (sort or filter on the numeric prefix); without identity, the Answer Intent value' }));
