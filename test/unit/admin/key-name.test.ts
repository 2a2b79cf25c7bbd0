import { describe, expect, it } from 'vitest';
import { KEY_NAME_MAX, normalizeKeyName } from '../../../lambdas/admin/key-name';
import { InvalidInput } from '../../../lambdas/platform/domain-errors';

describe('API key names', () => {
  it('trims, normalizes, and treats empty or absent as no name', () => {
    expect(normalizeKeyName('  CRM sync  ')).toBe('CRM sync');
    expect(normalizeKeyName('Cafe\u0301')).toBe('Café');
    expect(normalizeKeyName('   ')).toBeNull();
    expect(normalizeKeyName('')).toBeNull();
    expect(normalizeKeyName(null)).toBeNull();
    expect(normalizeKeyName(undefined)).toBeNull();
  });

  it(`accepts ${KEY_NAME_MAX} characters counted as people count them, and refuses one more`, () => {
    expect(normalizeKeyName('a'.repeat(KEY_NAME_MAX))).toHaveLength(KEY_NAME_MAX);
    // Astral characters count once each, not as two UTF-16 units.
    expect(normalizeKeyName('🔑'.repeat(KEY_NAME_MAX))).toBe('🔑'.repeat(KEY_NAME_MAX));
    expect(() => normalizeKeyName('a'.repeat(KEY_NAME_MAX + 1))).toThrow(new InvalidInput(`A key name has at most ${KEY_NAME_MAX} characters`));
    // Surrounding spaces do not count.
    expect(normalizeKeyName(` ${'b'.repeat(KEY_NAME_MAX)} `)).toBe('b'.repeat(KEY_NAME_MAX));
  });

  it('refuses control characters, line breaks and bidi overrides inside the name', () => {
    for (const hostile of ['a\nb', 'a\tb', 'a\u0000b', 'a\u007fb', 'a\u2028b', 'evil\u202etxt.exe', 'a\u2066b\u2069']) {
      expect(() => normalizeKeyName(hostile), JSON.stringify(hostile)).toThrow(InvalidInput);
    }
    // Markup and quotes are text: shown as written, never interpreted.
    expect(normalizeKeyName('<script>alert(1)</script>')).toBe('<script>alert(1)</script>');
    expect(normalizeKeyName(`"; DROP TABLE keys; --`)).toBe(`"; DROP TABLE keys; --`);
  });
});
