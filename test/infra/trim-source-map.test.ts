import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { trimSourceMap } from '../../tools/trim-source-map.mjs';
import { PROJECT_ROOT } from '../../lib/service-function';

// A minified bundle of a little of "our" code and a dependency, with its map, as
// lib/service-function.ts builds them; then the map as the deployed functions get it.
async function bundleWithMap(): Promise<{ code: string; map: string }> {
  // An ES module dependency is hoisted between our modules on the one minified line: lambdas/first.ts,
  // then util-dynamodb, then lambdas/own.ts.
  const contents = [
    "import { first } from 'virtual:first';",
    "import { marshall } from '@aws-sdk/util-dynamodb';",
    'export function ownFunction(item: Record<string, unknown>): string {',
    "  return first() + 'own-marker:' + JSON.stringify(marshall(item));",
    '}',
  ].join('\n');
  const out = await build({
    stdin: { contents, resolveDir: PROJECT_ROOT, loader: 'ts', sourcefile: 'lambdas/own.ts' },
    plugins: [
      {
        name: 'first',
        setup(b) {
          b.onResolve({ filter: /^virtual:first$/ }, () => ({ path: 'lambdas/first.ts', namespace: 'own' }));
          b.onLoad({ filter: /.*/, namespace: 'own' }, () => ({ contents: "export const first = (): string => 'first-marker:';", loader: 'ts' }));
        },
      },
    ],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    minify: true,
    mainFields: ['module', 'main'],
    sourcemap: 'external',
    outfile: 'index.mjs',
    logLevel: 'silent',
  });
  const file = (suffix: string) => new TextDecoder().decode(out.outputFiles.find((f) => f.path.endsWith(suffix))!.contents);
  return { code: file('index.mjs'), map: file('index.mjs.map') };
}

/** Generated line (1-based) and column of the first occurrence of `needle` in `code`. */
function positionOf(code: string, needle: string): { line: number; column: number } {
  const lines = code.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`${needle} not in the bundle`);
  return { line: line + 1, column: lines[line]!.indexOf(needle) };
}

describe('tools/trim-source-map.mjs', () => {
  it("keeps the service's own positions exactly, maps a dependency's code to nothing, and drops sources' text", async () => {
    const { code, map } = await bundleWithMap();
    const full = JSON.parse(map) as { sources: string[]; sourcesContent?: string[] };
    expect(full.sources.some((s) => s.includes('node_modules/@aws-sdk/util-dynamodb'))).toBe(true);

    const trimmedText = trimSourceMap(map);
    const trimmed = JSON.parse(trimmedText) as { sources: string[]; sourcesContent?: string[] };
    expect(trimmed.sources.sort()).toEqual(['lambdas/own.ts', 'own:lambdas/first.ts']);
    expect(trimmed.sourcesContent).toBeUndefined();
    expect(trimmedText.length).toBeLessThan(map.length / 4);

    const own = positionOf(code, 'own-marker:');
    const before = originalPositionFor(new TraceMap(map), own);
    const after = originalPositionFor(new TraceMap(trimmedText), own);
    expect(before).toMatchObject({ source: 'lambdas/own.ts', line: 4 });
    expect(after).toEqual(before);

    // Inside the dependency, on the same minified line as our code or not: no source at all, never
    // the nearest of ours (a frame in the SDK must not be reported as a line of the service).
    const dependency = positionOf(code, 'Unsupported type passed');
    expect(dependency.column).toBeGreaterThan(positionOf(code, 'first-marker:').column);
    expect(originalPositionFor(new TraceMap(map), dependency).source).toContain('node_modules/@aws-sdk/util-dynamodb');
    expect(originalPositionFor(new TraceMap(trimmedText), dependency).source).toBeNull();
  });

  it("drops a dependency's sources named by its own layout (a package shipping its own maps: saxes's ../src/saxes.ts)", () => {
    // Two segments on one line: the service's lambdas/own.ts, then the dependency's.
    const map = JSON.stringify({ version: 3, sources: ['../../lambdas/own.ts', '../../../../../src/saxes.ts'], names: [], mappings: 'AAAA,UCAA' });
    const trimmed = JSON.parse(trimSourceMap(map)) as { sources: string[] };
    expect(trimmed.sources).toEqual(['../../lambdas/own.ts']);
  });

  it('refuses what is not a source map', () => {
    expect(() => trimSourceMap('{"version":2}')).toThrow(/source map/);
  });
});
