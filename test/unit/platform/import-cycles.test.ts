import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles } from './import-cycles';
import { tempDir } from '../../support/temp-dirs';

// Issue 10 found two import cycles between lambdas/ and local/; this holds the graph acyclic
// (the same finding as `npx madge --circular --extensions ts lambdas local bin lib`).

describe('import graph', () => {
  it('has no cycle in the service code', () => {
    expect(importCycles(process.cwd(), ['lambdas', 'local', 'bin', 'lib'])).toEqual([]);
  });

  it('finds a cycle, including one made only of type imports', () => {
    const root = tempDir('cycles-');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src/a.ts'), "import type { B } from './b';\nexport type A = B;\n");
    writeFileSync(join(root, 'src/b.ts'), "import { c } from './c';\nexport type B = string;\nexport const b = c;\n");
    writeFileSync(join(root, 'src/c.ts'), "import type { A } from './a';\nexport const c: A | null = null;\n");
    expect(importCycles(root, ['src'])).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts']]);
  });
});
