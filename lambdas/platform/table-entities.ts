import type { IndexName } from './table-definition';

// Every kind of item the single table holds, with its key patterns and the indexes it appears in:
// the one list docs/data-model.md is checked against (test/unit/docs/docs-truth.test.ts).
//
// `version` is the schema version of the attributes the code writes today; every item written
// carries `entity` and `version`. Items written before versions existed have none: they read as
// version 1 (readEntity in table-read.ts). A change of an entity's attributes that old items do
// not satisfy bumps its version, and its schema reads both.

export interface EntityDefinition {
  /** Schema version written today. */
  version: number;
  /** Key patterns as the docs show them: `<name>` is a value, everything else literal. */
  pk: string;
  sk: string;
  indexes?: Partial<Record<IndexName, { pk: string; sk?: string }>>;
}

export const ENTITIES = {
  ApiKey: { version: 1, pk: 'APIKEY#<sha256(key)>', sk: 'META', indexes: { gsi1: { pk: 'ORG#<org>#KEYS', sk: '<created_at>#<key_id>' }, gsi2: { pk: 'APIKEYID#<key_id>', sk: 'META' } } },
  Organization: { version: 1, pk: 'ORG#<org>', sk: 'META' },
  User: { version: 1, pk: 'USER#<user>', sk: 'META' },
  Membership: { version: 1, pk: 'ORG#<org>', sk: 'MEMBER#<user>', indexes: { gsi1: { pk: 'USER#<user>#ORGS', sk: '<org>' } } },
  Balance: { version: 1, pk: 'ORG#<org>', sk: 'BALANCE', indexes: { gsi1: { pk: 'BALANCES', sk: '<org>' } } },
  LedgerEntry: { version: 1, pk: 'ORG#<org>', sk: 'LEDGER#<change_id>', indexes: { gsi1: { pk: 'ORG#<org>#LEDGER', sk: '<created_at>#<change_id>' } } },
  RateBucket: { version: 1, pk: 'RATE#<scope>#<id>', sk: 'BUCKET' },
  Upload: { version: 1, pk: 'UPLOAD#<id>', sk: 'META', indexes: { gsi1: { pk: 'ORG#<org>#UPLOADS', sk: '<created_at>#<id>' }, gsi2: { pk: 'UPLOAD#WATCH', sk: '<stale_at>#<id>' } } },
  StagedUploadClaim: { version: 1, pk: 'STAGED#<org>#<staged_upload_id>', sk: 'CLAIM' },
  Contact: {
    version: 1,
    pk: 'CONTACT#<id>',
    sk: 'META',
    indexes: { gsi1: { pk: 'ORG#<org>#CONTACTS', sk: '<created_at>#<id>' }, gsi2: { pk: 'ORG#<org>#CONTACTS#<status>', sk: '<created_at>#<id>' }, gsi3: { pk: 'RECOVER#Contact', sk: '<stale_at>#<id>' } },
  },
  IdempotencyKey: { version: 1, pk: 'IDEMP#<org>#<key_id>#<sha256(idempotency_key)>', sk: 'META' },
  ContactQueueEntry: { version: 1, pk: 'CONTACTQ#<shard 0-7>', sk: '<created_at>#<contact_id>' },
  ContactBatch: { version: 1, pk: 'ORG#<org>', sk: 'CONTACTBATCH#max' },
  WebhookEndpoint: { version: 1, pk: 'WEBHOOK#<id>', sk: 'META', indexes: { gsi1: { pk: 'ORG#<org>#WEBHOOKS', sk: '<created_at>#<id>' } } },
  WebhookDelivery: {
    version: 1,
    pk: 'DELIVERY#<id>',
    sk: 'META',
    indexes: { gsi1: { pk: 'WEBHOOK#<id>#DELIVERIES', sk: '<created_at>#<id>' }, gsi2: { pk: 'DELIVERY#DUE', sk: '<next_attempt_at>#<id>' } },
  },
  Event: { version: 1, pk: 'EVENT#<evt_id>', sk: 'META', indexes: { gsi1: { pk: 'ORG#<org>#EVENTS', sk: '<created_at>#<evt_id>' } } },
  MonitoredNumber: {
    version: 1,
    pk: 'SPAMNUM#<id>',
    sk: 'META',
    indexes: { gsi1: { pk: 'ORG#<org>#SPAMNUMS', sk: '<created_at>#<id>' }, gsi2: { pk: 'SPAMNUM#VERIFIED', sk: '<created_at>#<id>' } },
  },
  SpamNumberCount: { version: 1, pk: 'ORG#<org>', sk: 'SPAMNUMS#COUNT' },
  SpamPhoneGuard: { version: 1, pk: 'SPAMPHONE#<org>#<e164>', sk: 'META' },
  SpamTestRun: { version: 1, pk: 'SPAMNUM#<id>', sk: 'RUN#<day>#<carrier>' },
  SpamScheduledRun: { version: 1, pk: 'SPAMRUN#<day>', sk: 'META' },
  SimulatedMessage: { version: 1, pk: 'SIMOUTBOX#<to>', sk: '<sent_at>#<id>' },
  WebUploadDraft: { version: 1, pk: 'WEBUPLOAD#<id>', sk: 'META', indexes: { gsi1: { pk: 'ORG#<org>#WEBUPLOADS', sk: '<created_at>#<id>' } } },
  Lease: { version: 1, pk: 'LEASE#<name>', sk: 'META' },
  LocalSeed: { version: 1, pk: 'LOCAL#SEED', sk: 'META' },
  LocalConsoleSeed: { version: 1, pk: 'LOCAL#CONSOLE', sk: 'META' },
} as const satisfies Record<string, EntityDefinition>;

export type EntityName = keyof typeof ENTITIES;

/** The attributes every written item carries: what it is, and the schema version it was written with. */
export function stamp(entity: EntityName): { entity: EntityName; version: number } {
  return { entity, version: ENTITIES[entity].version };
}

/**
 * `stamp` for an UpdateExpression that may create its item (counters, buckets): a SET fragment
 * with its attribute names and values, to merge into the update's own.
 */
export function stampUpdate(entity: EntityName): { set: string; names: Record<string, string>; values: Record<string, unknown> } {
  return {
    set: '#entity = :entity, #version = :version',
    names: { '#entity': 'entity', '#version': 'version' },
    values: { ':entity': entity, ':version': ENTITIES[entity].version },
  };
}
