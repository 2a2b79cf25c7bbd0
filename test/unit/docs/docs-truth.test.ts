import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../lambdas/api/routes';
import { TABLE_KEYS } from '../../../lambdas/platform/table-definition';
import { ENTITIES, indexPatterns, type EntityDefinition } from '../../../lambdas/platform/table-entities';

// Docs that drifted from the code once: each is checked against what the code declares.

const doc = (name: string) => readFileSync(name, 'utf8');

describe('docs true to the code', () => {
  it('the rate-limited families in the docs are exactly the routes marked rateLimited', () => {
    const families = new Set(ROUTES.filter((r) => r.rateLimited).map((r) => r.path.replace(/\/\{.*$/, '').replace(/\/(staging|verify)$/, '')));
    for (const file of ['README.md', 'docs/credits-and-limits.md']) {
      const text = doc(file);
      for (const family of families) expect(text, `${file} names ${family}`).toContain(`\`${family}\``);
    }
  });

  it('the README pipeline names the state machine states', () => {
    const asl = JSON.parse(doc('statemachines/upload-processing.asl.json')) as { States: Record<string, unknown> };
    for (const state of Object.keys(asl.States)) expect(doc('README.md')).toContain(state);
  });

  it('docs/data-model.md names every index of the table', () => {
    for (const index of TABLE_KEYS.indexes) expect(doc('docs/data-model.md')).toContain(`\`${index.name}\``);
  });

  it('docs/data-model.md shows every entity with its key patterns and indexes, and no other', () => {
    // Rows of the access-pattern table: | # | access pattern | item / index | key |
    const rows = doc('docs/data-model.md')
      .split('\n')
      .filter((line) => /^\| \d+[a-z]? \|/.test(line))
      .map((line) => line.split(' | '))
      .map((cells) => ({ item: cells[2] ?? '', key: cells[3] ?? '' }));
    for (const row of rows) {
      for (const name of row.item.match(/\b[A-Z][A-Za-z]+\b/g) ?? []) expect(Object.keys(ENTITIES), `docs/data-model.md names ${name}`).toContain(name);
    }
    for (const [name, definition] of Object.entries(ENTITIES) as [string, EntityDefinition][]) {
      const keys = rows.filter((row) => new RegExp(`\\b${name}\\b`).test(row.item)).map((row) => row.key).join(' ');
      const expected = [`\`pk=${definition.pk}\``, `\`sk=${definition.sk}\``];
      for (const [index, patterns] of Object.entries(definition.indexes ?? {})) {
        for (const key of indexPatterns(patterns)) {
          expected.push(`\`${index}pk=${key.pk}\``);
          if (key.sk) expected.push(`\`${index}sk=${key.sk}\``);
        }
      }
      for (const pattern of expected) expect(keys, `${name} in docs/data-model.md`).toContain(pattern);
    }
  });

  it('docs/operations.md lists every schedule of the stack and the local runtime', () => {
    const ops = doc('docs/operations.md');
    for (const job of ['billing periods', 'contact pool', 'daily spam tests', 'webhook sweeper', 'recovery']) expect(ops).toContain(job);
  });
});
