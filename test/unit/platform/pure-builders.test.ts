import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './import-cycles';

// esbuild keeps a module's top-level calls, and all they reference, in every bundle that imports the
// module, unless a call is marked /* @__PURE__ */ (it ignores @__NO_SIDE_EFFECTS__ on an imported
// declaration). An unmarked `const s3 = perConfig(() => new S3Client())` put client-s3 in functions
// that never read S3 (docs/performance.md). The builders below build nothing until first called.
const BUILDERS = new Set(['perConfig']);

/** Top-level `const x = builder(...)` without a pure mark, as `line: text`. */
function unmarkedBuilders(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || !BUILDERS.has(init.expression.text)) continue;
      // The trivia between `=` and the call: where esbuild reads the mark.
      if (!text.slice(init.pos, init.getStart()).includes('@__PURE__')) {
        found.push(`${source.getLineAndCharacterOfPosition(init.getStart()).line + 1}: ${declaration.getText().slice(0, 80)}`);
      }
    }
  }
  return found;
}

describe('module-level builders are marked pure, so bundles that do not use them drop them', () => {
  it('finds an unmarked builder and accepts a marked one', () => {
    expect(unmarkedBuilders('a.ts', 'export const s3 = perConfig(() => new S3Client());\n')).toHaveLength(1);
    expect(unmarkedBuilders('a.ts', 'export const s3: () => S3Client = /* @__PURE__ */ perConfig(() => new S3Client());\n')).toEqual([]);
  });

  it('every one under lambdas/ is marked', () => {
    const found = tsFiles('lambdas').flatMap((file) => unmarkedBuilders(file, readFileSync(file, 'utf8')).map((hit) => `${relative('.', file)}:${hit}`));
    expect(found).toEqual([]);
  });
});
