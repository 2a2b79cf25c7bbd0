import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTITIES, indexPatterns, type EntityDefinition } from '../../../lambdas/platform/table-entities';

// Every key the code builds is one table-entities.json declares (and docs/data-model.md shows: the
// docs test holds the file to the doc). The list is derived from the code itself: every string or
// template literal in lambdas/ that starts like a key (`UPLOAD#${id}`, 'ORG#…#CALLBACKS', a
// begins_with prefix such as 'RUN#') must fit one of the declared patterns, so a new prefix written
// anywhere fails here until it is declared.

const ROOT = resolve(import.meta.dirname, '../../..');
/** Keys that are built but never stored, each with why. */
const NOT_STORED: Record<string, string> = {
  'READY#probe': 'read by /ready to prove the table answers; nothing writes it',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Key-like literals of the code, `${…}` written as `<>`, each with the first file that has it. */
export function keyLiterals(files: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/`([A-Z][A-Z0-9_]*#[^`]*)`|'([A-Z][A-Z0-9_]*#[^']*)'/g)) {
      const literal = (match[1] ?? match[2]!).replace(/\$\{[^}]*\}/g, '<>');
      if (!found.has(literal)) found.set(literal, relative(ROOT, file));
    }
  }
  return found;
}

/** Declared patterns that start with a literal (those starting with a value, e.g. `<created_at>#<id>`, match anything); a value holds no `#`. */
function declaredPatterns(entities: Record<string, EntityDefinition>): RegExp[] {
  const patterns = Object.values(entities).flatMap((e) => [e.pk, e.sk, ...Object.values(e.indexes ?? {}).flatMap((p) => indexPatterns(p!).flatMap((x) => [x.pk, ...(x.sk ? [x.sk] : [])]))]);
  return patterns
    .filter((p) => !p.startsWith('<'))
    .map((p) => new RegExp(`^${p.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^#]+')}$`));
}

/** A literal fits a pattern as a whole key, or as the prefix of one (begins_with); a `<>` of the code may stand for several parts (`RATE#${bucketId}`). */
export function fits(literal: string, patterns: RegExp[]): boolean {
  const values = ['X', 'X#X', 'X#X#X'];
  const candidates = values.flatMap((v) => {
    const whole = literal.replaceAll('<>', v);
    return [whole, ...values.map((tail) => whole + tail)];
  });
  return patterns.some((pattern) => candidates.some((candidate) => pattern.test(candidate)));
}

describe('key literals of the code against table-entities.json', () => {
  const patterns = declaredPatterns(ENTITIES);
  const literals = keyLiterals(sourceFiles(join(ROOT, 'lambdas')));

  it('finds the keys the code builds (the scan is not blind)', () => {
    for (const known of ['UPLOAD#<>', 'ORG#<>#CALLBACKS', 'RECOVER#Contact', 'RUN#']) expect([...literals.keys()]).toContain(known);
  });

  it('every key literal fits a declared pattern, or is a key that is never stored', () => {
    const undeclared = [...literals].filter(([literal]) => !(literal in NOT_STORED) && !fits(literal, patterns)).map(([literal, file]) => `${literal} (${file})`);
    expect(undeclared).toEqual([]);
  });

  it('fails a prefix nobody declared, and one whose shape differs from its declaration', () => {
    expect(fits('NEWTHING#<>', patterns)).toBe(false);
    expect(fits('ORG#<>#SOMETHING_NEW', patterns)).toBe(false);
    expect(fits('UPLOAD#<>', patterns)).toBe(true);
    expect(fits('RATE#<>', patterns)).toBe(true);
  });
});
