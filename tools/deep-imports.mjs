// An esbuild plugin that points the AWS SDK's imports of its barrel modules (index files of
// re-exports, such as @aws-sdk/core/protocols or @smithy/core/serde) at the files that define
// what is imported. esbuild's code splitting gives each *file* to the chunk of every entry point
// that reaches it through any import, used or not (https://github.com/evanw/esbuild/issues/3531):
// when a function loads the S3 client on first use (a chunk of its own) and its entry holds the
// DynamoDB client, both reach those barrels, so every file the S3 client takes through them (the
// XML serializers, the stream and checksum helpers) went to a chunk the entry imports statically:
// about 44 KB more at every cold start of a function whose hot path never calls S3
// (docs/performance.md, "Cold imports, seventh step"). With each name imported from its own file,
// a file is reached only by the chunks that use it.
//
// A barrel with code of its own beside its re-exports (@smithy/core/serde defines
// `Uint8ArrayBlobAdapter` and `v4`) is split in two: its own code becomes a module of its own
// (namespace `deep-own`), which the SDK's files import for those names, and the barrel keeps its
// re-exports and re-exports that module, so any other importer still finds every name, and each
// definition exists once.
// Used by every Lambda bundle's build (tools/bundle-lambda.mjs; the deployed assets and the bench).
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** `import { a, b as c } from "x";` and `export { … } from "x";`, as the SDK's dist-es files write them. */
const NAMED_FROM = /(import|export)\s*\{([^}]*)\}\s*from\s*"([^"]+)"\s*;?/g;
const STAR_FROM = /export\s*\*\s*from\s*"([^"]+)"\s*;?/g;
/** A module's own exported declarations, and `export { a, b as c };` of its own bindings. */
const OWN_DECLARATION = /export\s+(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/g;
const OWN_LIST = /export\s*\{([^}]*)\}(?!\s*from)/g;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
/** What the plugin cannot name from the text: a default export, destructured or star-as exports. */
const UNREADABLE = /export\s+default|export\s+(?:const|let|var)\s*[{[]|export\s*\*\s*as/;
/** Only the SDK's own packages: their dist-es files are generated, plain ES modules. */
const SDK_FILE = /[/\\]node_modules[/\\]@(aws-sdk|smithy)[/\\].*\.js$/;
const OWN = 'deep-own';

/** `a, b as c` -> [[exported, local]] */
const specifiers = (list) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [from, to = from] = s.split(/\s+as\s+/);
      return [from, to];
    });

/**
 * @typedef {{ specifier: string, name: string }} Definition where a name is defined: the module to import it from, and its name there
 * @typedef {{ names: Map<string, Definition>, mixed: boolean }} Exports a module's names; `mixed`: re-exports beside code of its own
 */

/** @param {(spec: string, resolveDir: string) => Promise<string | undefined>} resolve */
function exportsReader(resolve) {
  /** @type {Map<string, Promise<Exports | null>>} */
  const cache = new Map();
  /** @returns {Promise<Exports | null>} null when the text does not say every name */
  const exportsOf = (file) => {
    if (!cache.has(file)) cache.set(file, read(file));
    return cache.get(file);
  };

  async function read(file) {
    const text = (await readFile(file, 'utf8')).replace(COMMENT, '');
    if (UNREADABLE.test(text)) return null;
    const ownText = text.replace(NAMED_FROM, (m, kind) => (kind === 'export' ? '' : m)).replace(STAR_FROM, '');
    const reexports = ownText.length !== text.length;
    const own = [...ownText.matchAll(OWN_DECLARATION)].map((m) => m[1]).concat([...ownText.matchAll(OWN_LIST)].flatMap((m) => specifiers(m[1]).map(([, exported]) => exported)));
    const mixed = reexports && own.length > 0;
    /** @type {Map<string, Definition>} */
    const names = new Map();
    for (const name of own) names.set(name, { specifier: mixed ? `${file}?${OWN}` : file, name });
    for (const m of text.matchAll(NAMED_FROM)) {
      if (m[1] !== 'export') continue;
      const target = await resolve(m[3], dirname(file));
      if (!target) return null;
      const inner = await exportsOf(target);
      for (const [from, to] of specifiers(m[2])) names.set(to, inner?.names.get(from) ?? { specifier: target, name: from });
    }
    for (const m of text.matchAll(STAR_FROM)) {
      const target = await resolve(m[1], dirname(file));
      const inner = target && (await exportsOf(target));
      if (!inner) return null;
      for (const [name, at] of inner.names) if (!names.has(name) && name !== 'default') names.set(name, at);
    }
    return { names, mixed };
  }
  return exportsOf;
}

/** @returns {import('esbuild').Plugin} */
export function deepImports() {
  return {
    name: 'deep-imports',
    setup(build) {
      const resolve = async (spec, resolveDir) => {
        const r = await build.resolve(spec, { kind: 'import-statement', resolveDir });
        return r.errors.length || r.external || r.namespace !== 'file' || !r.path.endsWith('.js') ? undefined : r.path;
      };
      const exportsOf = exportsReader(resolve);

      /** `text` with each named import from a module that re-exports it taken from the defining module instead. */
      const deepen = async (text, dir) => {
        const pieces = [];
        let last = 0;
        for (const m of text.matchAll(NAMED_FROM)) {
          if (m[1] !== 'import') continue;
          const target = await resolve(m[3], dir);
          const exported = target && (await exportsOf(target));
          if (!exported) continue;
          const names = specifiers(m[2]);
          const at = names.map(([from]) => exported.names.get(from));
          if (at.some((a) => !a) || at.every((a) => a.specifier === target)) continue;
          const bySpecifier = new Map();
          names.forEach(([, local], i) => bySpecifier.set(at[i].specifier, [...(bySpecifier.get(at[i].specifier) ?? []), at[i].name === local ? local : `${at[i].name} as ${local}`]));
          // One line, as the statement was: line numbers in the file stay as they were.
          pieces.push(text.slice(last, m.index), [...bySpecifier].map(([specifier, list]) => `import { ${list.join(', ')} } from ${JSON.stringify(specifier)};`).join(' '));
          last = m.index + m[0].length;
        }
        return pieces.length ? pieces.join('') + text.slice(last) : undefined;
      };

      build.onResolve({ filter: new RegExp(`\\?${OWN}$`) }, ({ path }) => ({ path: path.slice(0, -OWN.length - 1), namespace: OWN }));
      // A mixed barrel's own code, without its re-exports.
      build.onLoad({ filter: /.*/, namespace: OWN }, async ({ path }) => {
        const text = (await readFile(path, 'utf8')).replace(NAMED_FROM, (m, kind) => (kind === 'export' ? '' : m)).replace(STAR_FROM, '');
        return { contents: (await deepen(text, dirname(path))) ?? text, loader: 'js', resolveDir: dirname(path) };
      });
      build.onLoad({ filter: SDK_FILE }, async ({ path }) => {
        const exported = await exportsOf(path);
        if (exported?.mixed) {
          // The barrel itself: its re-exports, and its own code's names from the module above.
          const text = await readFile(path, 'utf8');
          const reexports = [...text.matchAll(NAMED_FROM)].filter((m) => m[1] === 'export').map((m) => m[0]);
          const stars = [...text.matchAll(STAR_FROM)].map((m) => m[0]);
          return { contents: [...reexports, ...stars, `export * from ${JSON.stringify(`${path}?${OWN}`)};`].join('\n'), loader: 'js', resolveDir: dirname(path) };
        }
        const contents = await deepen(await readFile(path, 'utf8'), dirname(path));
        return contents === undefined ? undefined : { contents, loader: 'js', resolveDir: dirname(path) };
      });
    },
  };
}
