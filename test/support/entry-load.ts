import { build, type Metafile } from 'esbuild';
import { BUNDLE_BUILD } from '../../lib/bundle-options';
import { tempDir } from './temp-dirs';

/**
 * `entry` bundled as deployed (lib/bundle-options.ts, not written): every output file, and those a
 * cold start loads (the entry chunk and what it imports statically, at any depth).
 */
export async function entryLoad(entry: string): Promise<{ outputs: Metafile['outputs']; initial: Set<string> }> {
  const { metafile } = await build({ ...BUNDLE_BUILD, entryPoints: [entry], outdir: tempDir('entry-load-'), write: false, metafile: true, logLevel: 'silent' });
  const outputs = metafile.outputs;
  const closure = (file: string, into = new Set<string>()): Set<string> => {
    if (into.has(file)) return into;
    into.add(file);
    for (const i of outputs[file]!.imports) if (i.kind === 'import-statement' && outputs[i.path]) closure(i.path, into);
    return into;
  };
  return { outputs, initial: closure(Object.keys(outputs).find((f) => f.endsWith('/index.mjs'))!) };
}
