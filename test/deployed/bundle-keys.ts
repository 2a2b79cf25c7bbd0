import { INDEX_KEY_PATTERNS, TABLE_KEY_PATTERNS, type KeyPattern } from '../../lib/table-keys';

// The partition keys a shipped bundle can build, read from the bundle itself: the key builders
// compile to template literals (`ORG#${org}`) and string constants ("UPLOAD#WATCH"), which survive
// minification. The entity definitions (table-entities.json, bundled by every writer for its
// `entity`/`version` stamp) spell every pattern with `<value>` placeholders and are cut out first.

const ALL_PATTERNS: readonly KeyPattern[] = [...new Set([...TABLE_KEY_PATTERNS, ...Object.values(INDEX_KEY_PATTERNS).flatMap((s) => [...s])])]
  // Longest first: `UPLOAD#WATCH` before `UPLOAD#*`.
  .sort((a, b) => b.length - a.length);

/** The bundled entity definitions: `{ApiKey:{version:1,pk:"APIKEY#<sha256(key)>",…}…}`, brace-matched. */
function withoutEntityDefinitions(bundle: string): string {
  let out = bundle;
  for (;;) {
    const start = out.indexOf('{ApiKey:{version:');
    if (start === -1) return out;
    let depth = 0;
    let end = start;
    for (; end < out.length; end++) {
      if (out[end] === '{') depth++;
      else if (out[end] === '}' && --depth === 0) break;
    }
    out = out.slice(0, start) + out.slice(end + 1);
  }
}

/** A literal's key pattern: the longest pattern it is (a constant) or starts (a family `X#*`). */
export function patternOfLiteral(literal: string, continues: boolean): KeyPattern | null {
  for (const p of ALL_PATTERNS) {
    if (p.endsWith('*')) {
      if (literal.startsWith(p.slice(0, -1))) return p;
    } else if (literal === p && !continues) return p;
  }
  return null;
}

/**
 * The partition-key patterns a bundle's code spells: every string or template literal (a template
 * up to its first `${`) that is a known constant partition or starts a known family.
 */
export function keyPatternsOfBundle(bundle: string): Set<KeyPattern> {
  const code = withoutEntityDefinitions(bundle);
  const found = new Set<KeyPattern>();
  for (const m of code.matchAll(/[`"']([A-Z][A-Z0-9]*#[^`"'$\\]*|[A-Z][A-Z0-9]*)(\$\{|[`"'])/g)) {
    const pattern = patternOfLiteral(m[1]!, m[2] === '${');
    if (pattern) found.add(pattern);
  }
  return found;
}
