import * as z from '../platform/zod';
import { authErrors, byIdParams, StringError, freeFormObject, pageLimit, rateLimitErrors } from '../platform/http/common-schemas';
import { MAX_IDEMPOTENCY_KEY_LENGTH, VISIBLE_ASCII } from './idempotency-key';
import type { RouteSpec } from '../platform/http/route-spec';
import { CONTACT_STATUSES, ContactV1, ContactV2 } from './contact-schema';

export const CreateContactBody = z.lazySchema(() => z
  .strictObject({
    phone: z.string({ error: 'phone is required and must be a string' }).check(z.minLength(1, 'phone must not be empty'), z.maxLength(64, 'phone must be at most 64 characters')),
    validation_tier: z.optional(z.string()).check(z.describe('standard (default) or max, case-insensitive')),
    properties: z.optional(freeFormObject('properties must be an object')).check(z.describe('free-form, echoed back unchanged, any keys; at most 16 KiB as JSON')),
    callback_url: z.optional(z.string().check(z.maxLength(2048))).check(z.describe('HTTPS URL that receives a signed POST when the result is ready')),
    callback_secret: z.optional(z.string().check(z.minLength(16), z.maxLength(256))).check(z.describe('HMAC-SHA256 key for the callback signature; required with callback_url')),
    idempotency_key: z.optional(z.string().check(z.minLength(1), z.maxLength(255))).check(z.describe('scoped per organization and API key')),
  })
  .check(z.meta({ id: 'CreateContactRequest' })));

const ListQuery = z.lazySchema(() => z.object({
  status: z.optional(z.enum(CONTACT_STATUSES)),
  limit: pageLimit(100, 50),
  cursor: z.optional(z.string().check(z.maxLength(2048))),
}));
const IdParams = byIdParams('contact_id', 'Contact not found', 'id of a contact of the key’s organization');

const createErrors = {
  400: { description: 'Malformed input: unparseable or non-US/CA phone, invalid validation_tier, unsafe callback_url', schema: StringError },
  402: { description: 'Insufficient credits', schema: StringError },
  409: { description: 'idempotency_key reused with a different request, or the first request with it is still in progress', schema: StringError },
  ...authErrors,
  ...rateLimitErrors,
};

function versioned<V extends 1 | 2>(version: V, schema: z.ZodMiniType) {
  const base = `/api/v${version}/contacts`;
  return {
    create: {
      method: 'POST',
      path: base,
      fn: 'contacts',
      operationId: `createContactV${version}`,
      summary: `Submit one number for classification (v${version})`,
      tags: ['contacts'],
      rateLimited: true,
      request: {
        body: CreateContactBody,
        headers: {
          'Idempotency-Key': {
            description: `The same key as the body’s idempotency_key (1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters, scoped per organization and API key; a key with other characters goes in the body); both given and different: 400`,
            schema: z.string().check(z.minLength(1), z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH), z.regex(VISIBLE_ASCII)),
          },
        },
      },
      responses: {
        201: {
          description: 'Contact queued (or the existing contact for a replayed idempotency key)',
          schema,
          headers: { 'Idempotent-Replayed': { description: '`true` when this answer is the contact an earlier request with the same idempotency key created (nothing more was charged)', schema: z.literal('true') } },
        },
        ...createErrors,
      },
    },
    list: {
      method: 'GET',
      path: base,
      fn: 'contacts',
      operationId: `listContactsV${version}`,
      summary: `List contacts, newest first (v${version})`,
      tags: ['contacts'],
      request: { query: ListQuery },
      responses: {
        200: { description: 'A page of contacts', schema: z.lazySchema(() => z.object({ data: z.array(schema), next_cursor: z.nullable(z.string()) })) },
        400: { description: 'Invalid query', schema: StringError },
        ...authErrors,
      },
    },
    get: {
      method: 'GET',
      path: `${base}/{contact_id}`,
      fn: 'contacts',
      operationId: `getContactV${version}`,
      summary: `The latest snapshot of one contact (v${version})`,
      tags: ['contacts'],
      request: { params: IdParams },
      responses: { 200: { description: 'Contact', schema }, 404: { description: 'Unknown or another organization’s', schema: StringError }, ...authErrors },
    },
  } satisfies Record<string, RouteSpec>;
}

export const contactsV1Routes = versioned(1, ContactV1);
export const contactsV2Routes = versioned(2, ContactV2);
