import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../lambdas/api/routes';
import { TABLE_KEYS } from '../../../lambdas/platform/table-definition';

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

  it('docs/operations.md lists every schedule of the stack and the local runtime', () => {
    const ops = doc('docs/operations.md');
    for (const job of ['billing periods', 'contact pool', 'daily spam tests', 'webhook sweeper', 'recovery']) expect(ops).toContain(job);
  });
});
