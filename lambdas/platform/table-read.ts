import type { ZodMiniType as ZodType } from './zod';
import { describeZodError } from './http/validation';
import { ENTITIES, type EntityName } from './table-entities';
import type { Item } from './table';

// Reading an item back into a record: the table's own attributes come off, and what is left must
// satisfy the entity's schema, so a repository never casts what DynamoDB returned.

/** Keys, index keys, TTL, `entity`/`version`, and outbox entries (`outbox_<event id>`, webhooks/outbox.ts). */
const TABLE_ATTRIBUTE = /^(pk|sk|gsi\d(pk|sk)|ttl|entity|version|outbox_.+)$/;

export class InvalidItemError extends Error {
  constructor(entity: EntityName, item: Item, why: string) {
    super(`${entity} item ${String(item.pk)} / ${String(item.sk)}: ${why}`);
    this.name = 'InvalidItemError';
  }
}

/** The schema version an item was written with; items from before versions existed are version 1. */
export function versionOf(item: Item): number {
  return typeof item.version === 'number' ? item.version : 1;
}

/**
 * The record an item holds, validated by `schema`; null when there is no item. An item of another
 * entity, of a version newer than this code writes, or not matching the schema is an error: it
 * is a bug or a deployment mix-up, never something to serve.
 */
export function readEntity<T>(entity: EntityName, schema: ZodType<T>, item: Item | undefined): T | null {
  if (!item) return null;
  if (item.entity !== undefined && item.entity !== entity) throw new InvalidItemError(entity, item, `holds a ${String(item.entity)}`);
  const version = versionOf(item);
  if (version > ENTITIES[entity].version) throw new InvalidItemError(entity, item, `schema version ${version} is newer than this code reads (${ENTITIES[entity].version})`);
  const attributes: Item = {};
  for (const [name, value] of Object.entries(item)) if (!TABLE_ATTRIBUTE.test(name)) attributes[name] = value;
  const parsed = schema.safeParse(attributes);
  if (!parsed.success) throw new InvalidItemError(entity, item, describeZodError(parsed.error));
  return parsed.data;
}

/** readEntity for an item known to exist (a query result). */
export function readExisting<T>(entity: EntityName, schema: ZodType<T>, item: Item): T {
  const record = readEntity(entity, schema, item);
  if (record === null) throw new InvalidItemError(entity, item, 'missing');
  return record;
}
