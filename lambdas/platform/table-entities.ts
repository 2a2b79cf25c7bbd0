import type { IndexName } from './table-definition';
import definitions from './table-entities.json';

// Every kind of item the single table holds, with its key patterns and the indexes it appears in
// (table-entities.json): the one list docs/data-model.md is checked against (test/unit/docs/docs-truth.test.ts).
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
  /** An item may sit in one index under different patterns in different states (a list: one at a time). */
  indexes?: Partial<Record<IndexName, IndexKeyPattern | IndexKeyPattern[]>>;
}

export interface IndexKeyPattern {
  pk: string;
  sk?: string;
}

/** An index's patterns as a list, whether the definition gives one or several. */
export const indexPatterns = (patterns: IndexKeyPattern | IndexKeyPattern[]): IndexKeyPattern[] => (Array.isArray(patterns) ? patterns : [patterns]);

export type EntityName = keyof typeof definitions;

/** The definitions are data (table-entities.json): the docs test and the key-pattern test read them as they are. */
export const ENTITIES: Record<EntityName, EntityDefinition> = definitions;

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
