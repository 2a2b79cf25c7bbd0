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
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** `import { a, b as c } from "x";` and `export { … } from "x";`, as the SDK's dist-es files write them. */
const NAMED_FROM = /(import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']\s*;?/g;
const STAR_FROM = /export\s*\*\s*from\s*["']([^"']+)["']\s*;?/g;
/** `export * as ns from "x";`: a name whose value is a module's namespace. */
const STAR_AS_FROM = /export\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s*from\s*["']([^"']+)["']\s*;?/g;
/** `import * as ns from "x";` */
const NAMESPACE_IMPORT = /import\s*\*\s*as\s+([A-Za-z_$][\w$]*)\s*from\s*["']([^"']+)["']\s*;?/g;
/** A module's own exported declarations, and `export { a, b as c };` of its own bindings. */
const OWN_DECLARATION = /export\s+(?:async\s+)?(?:function\s*\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/g;
const OWN_LIST = /export\s*\{([^}]*)\}(?!\s*from)/g;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;
/** What the plugin cannot name from the text: a default export, destructured exports. */
const UNREADABLE = /export\s+default|export\s+(?:const|let|var)\s*[{[]/;
/**
 * Whose imports are rewritten: the SDK's own packages and zod's (generated or plain ES modules), and
 * lambdas/platform/zod.ts, the service's one door to zod, whose re-exports by name go to the files
 * that define them, so an entry holding zod's schemas does not reach zod's barrels, which also
 * re-export the JSON Schema generator that only the OpenAPI documents' lazy chunk runs.
 */
const REWRITTEN = /[/\\]node_modules[/\\](?:@aws-sdk|@smithy|zod)[/\\].*\.js$|[/\\]lambdas[/\\]platform[/\\]zod(?:-json-schema)?\.ts$/;
const OWN = 'deep-own';
/** A namespace narrowed to the names its importer reads: `<barrel>?deep-names=a,b`. */
const NAMES = 'deep-names';
/** `ns` in `text` other than in its import: `ns.name` reads, by name, or null when it is used any other way. */
function memberNames(text, ns) {
  const names = new Set();
  for (const m of text.matchAll(new RegExp(`(?<![\\w$.])${ns.replace(/\$/g, '\\$')}(?![\\w$])`, 'g'))) {
    const member = /^\s*\.\s*([A-Za-z_$][\w$]*)/.exec(text.slice(m.index + ns.length));
    if (!member) return null;
    names.add(member[1]);
  }
  return [...names].sort();
}

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
 * @typedef {{ specifier: string, name: string }} Definition where a name is defined: the module to import it from, and its name there (`*`: that module's namespace)
 * @typedef {{ names: Map<string, Definition>, mixed: boolean }} Exports a module's names; `mixed`: re-exports beside code of its own
 */

/** `text` without its re-export statements: the module's own code. */
const ownCode = (text) => text.replace(NAMED_FROM, (m, kind) => (kind === 'export' ? '' : m)).replace(STAR_FROM, '').replace(STAR_AS_FROM, '');

/**
 * A file's text, read once per build: the barrels are read for their names and again when esbuild
 * loads them. Read synchronously: a few thousand small files, where the thread pool's round trips
 * for each cost more than the reads.
 * @returns {(file: string) => string}
 */
function sourceReader() {
  const texts = new Map();
  return (file) => {
    if (!texts.has(file)) texts.set(file, readFileSync(file, 'utf8'));
    return texts.get(file);
  };
}

/**
 * @param {(spec: string, resolveDir: string) => Promise<string | undefined>} resolve
 * @param {(file: string) => string} source
 */
function exportsReader(resolve, source) {
  /** @type {Map<string, Promise<Exports | null>>} */
  const cache = new Map();
  /** @returns {Promise<Exports | null>} null when the text does not say every name */
  const exportsOf = (file) => {
    if (!cache.has(file)) cache.set(file, read(file));
    return cache.get(file);
  };

  /** A specifier's file and what that file exports (null when unreadable; both undefined when not a file). */
  const resolveAndRead = async (spec, dir) => {
    const target = await resolve(spec, dir);
    return { target, inner: target ? await exportsOf(target) : undefined };
  };

  async function read(file) {
    const text = source(file).replace(COMMENT, '');
    if (UNREADABLE.test(text)) return null;
    const ownText = ownCode(text);
    const reexports = ownText.length !== text.length;
    const own = [...ownText.matchAll(OWN_DECLARATION)].map((m) => m[1]).concat([...ownText.matchAll(OWN_LIST)].flatMap((m) => specifiers(m[1]).map(([, exported]) => exported)));
    const mixed = reexports && own.length > 0;
    /** @type {Map<string, Definition>} */
    const names = new Map();
    for (const name of own) names.set(name, { specifier: mixed ? `${file}?${OWN}` : file, name });
    // Every module this one re-exports from, resolved and read side by side; then taken in order.
    const dir = dirname(file);
    const named = [...text.matchAll(NAMED_FROM)].filter((m) => m[1] === 'export');
    const starsAs = [...text.matchAll(STAR_AS_FROM)];
    const stars = [...text.matchAll(STAR_FROM)];
    const [namedAt, starsAsAt, starsAt] = await Promise.all([
      Promise.all(named.map((m) => resolveAndRead(m[3], dir))),
      Promise.all(starsAs.map((m) => resolve(m[2], dir))),
      Promise.all(stars.map((m) => resolveAndRead(m[1], dir))),
    ]);
    for (const [i, m] of named.entries()) {
      const { target, inner } = namedAt[i];
      if (!target) return null;
      for (const [from, to] of specifiers(m[2])) names.set(to, inner?.names.get(from) ?? { specifier: target, name: from });
    }
    for (const [i, m] of starsAs.entries()) {
      const target = starsAsAt[i];
      if (!target) return null;
      names.set(m[1], { specifier: target, name: '*' });
    }
    for (const { inner } of starsAt) {
      if (!inner) return null;
      for (const [name, at] of inner.names) if (!names.has(name) && name !== 'default') names.set(name, at);
    }
    return { names, mixed };
  }
  return { exportsOf, resolveAndRead };
}

/** `import`/`export` statements taking `names` ([name there, name here]) from the modules that define them. */
function statements(kind, names, definitions) {
  const bySpecifier = new Map();
  const out = [];
  names.forEach(([, local], i) => {
    const at = definitions[i];
    if (at.name === '*') out.push(`${kind} * as ${local} from ${JSON.stringify(at.specifier)};`);
    else bySpecifier.set(at.specifier, [...(bySpecifier.get(at.specifier) ?? []), at.name === local ? local : `${at.name} as ${local}`]);
  });
  return [...[...bySpecifier].map(([specifier, list]) => `${kind} { ${list.join(', ')} } from ${JSON.stringify(specifier)};`), ...out].join(' ');
}

/** esbuild's default `resolveExtensions`, in its order. */
const RESOLVE_EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js', '.css', '.json'];
const isFile = (path) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

/**
 * Where esbuild resolves a relative import of a `.js` file, found without asking it, in the cases
 * where its rules leave one answer: the path as written if it is a file, else the first of its
 * extensions that is (esbuild takes a folder only after both). The SDK's files import each other
 * by relative paths without extensions (`./foo`, about four in five of their imports). Anything
 * else (a package, a folder, a file that is not `.js`) is undefined: esbuild is asked.
 * @returns {string | undefined}
 */
export function resolveRelativeJs(spec, dir) {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return undefined;
  const base = join(dir, spec);
  const file = isFile(base) ? base : RESOLVE_EXTENSIONS.map((ext) => base + ext).find(isFile);
  return file?.endsWith('.js') ? realpathSync(file) : undefined;
}

/** @returns {import('esbuild').Plugin} */
export function deepImports() {
  return {
    name: 'deep-imports',
    setup(build) {
      // Each answer found once per build, most without asking esbuild (resolveRelativeJs): a resolve
      // is a round trip to its process, and the SDK's files ask a few thousand times over
      // (docs/deployment.md, "How long a synth takes").
      const resolved = new Map();
      const resolve = (spec, resolveDir) => {
        const key = `${resolveDir}\0${spec}`;
        if (!resolved.has(key)) {
          const local = resolveRelativeJs(spec, resolveDir);
          resolved.set(
            key,
            local !== undefined
              ? Promise.resolve(local)
              : build.resolve(spec, { kind: 'import-statement', resolveDir }).then((r) => (r.errors.length || r.external || r.namespace !== 'file' || !r.path.endsWith('.js') ? undefined : r.path)),
          );
        }
        return resolved.get(key);
      };
      const source = sourceReader();
      const { exportsOf, resolveAndRead } = exportsReader(resolve, source);

      /**
       * `text` with each name imported or re-exported by name from a module that re-exports it
       * taken from the defining module instead, and each namespace import of such a module whose
       * binding is only read as `ns.name` narrowed to a module re-exporting just those names.
       */
      const deepen = async (text, dir) => {
        const edits = [];
        const named = [...text.matchAll(NAMED_FROM)];
        const namespaces = [...text.matchAll(NAMESPACE_IMPORT)];
        const [namedAt, namespacesAt] = await Promise.all([Promise.all(named.map((m) => resolveAndRead(m[3], dir))), Promise.all(namespaces.map((m) => resolveAndRead(m[2], dir)))]);
        for (const [i, m] of named.entries()) {
          const { target, inner: exported } = namedAt[i];
          if (!exported) continue;
          const names = specifiers(m[2]);
          const at = names.map(([from]) => exported.names.get(from));
          if (at.some((a) => !a) || at.every((a) => a.specifier === target)) continue;
          edits.push([m.index, m[0].length, statements(m[1], names, at)]);
        }
        for (const [i, m] of namespaces.entries()) {
          const { target, inner: exported } = namespacesAt[i];
          if (!exported) continue;
          const used = memberNames(text.slice(0, m.index) + text.slice(m.index + m[0].length), m[1]);
          if (!used || used.length === 0 || used.some((name) => !exported.names.has(name))) continue;
          if (used.every((name) => exported.names.get(name).specifier === target)) continue;
          edits.push([m.index, m[0].length, `import * as ${m[1]} from ${JSON.stringify(`${target}?${NAMES}=${used.join(',')}`)};`]);
        }
        if (!edits.length) return undefined;
        // One line each, as the statement was: line numbers in the file stay as they were.
        edits.sort((a, b) => a[0] - b[0]);
        const pieces = [];
        let last = 0;
        for (const [index, length, replacement] of edits) {
          pieces.push(text.slice(last, index), replacement);
          last = index + length;
        }
        return pieces.join('') + text.slice(last);
      };
      const loader = (path) => (path.endsWith('.ts') ? 'ts' : 'js');

      build.onResolve({ filter: new RegExp(`\\?${OWN}$`) }, ({ path }) => ({ path: path.slice(0, -OWN.length - 1), namespace: OWN }));
      build.onResolve({ filter: new RegExp(`\\?${NAMES}=[\\w$,]+$`) }, ({ path }) => ({ path, namespace: NAMES }));
      // A mixed barrel's own code, without its re-exports.
      build.onLoad({ filter: /.*/, namespace: OWN }, async ({ path }) => {
        const text = ownCode(source(path));
        return { contents: (await deepen(text, dirname(path))) ?? text, loader: 'js', resolveDir: dirname(path) };
      });
      // A barrel narrowed to the names one importer reads, each from the module that defines it.
      build.onLoad({ filter: /.*/, namespace: NAMES }, async ({ path }) => {
        const at = path.lastIndexOf(`?${NAMES}=`);
        const barrel = path.slice(0, at);
        const names = path.slice(at + NAMES.length + 2).split(',');
        const exported = await exportsOf(barrel);
        return { contents: statements('export', names.map((name) => [name, name]), names.map((name) => exported.names.get(name))), loader: 'js', resolveDir: dirname(barrel) };
      });
      build.onLoad({ filter: REWRITTEN }, async ({ path }) => {
        const exported = path.endsWith('.js') ? await exportsOf(path) : null;
        if (exported?.mixed) {
          // The barrel itself: its re-exports, and its own code's names from the module above.
          const text = source(path);
          const reexports = [...text.matchAll(NAMED_FROM)].filter((m) => m[1] === 'export').map((m) => m[0]);
          const stars = [...text.matchAll(STAR_FROM), ...text.matchAll(STAR_AS_FROM)].map((m) => m[0]);
          return { contents: [...reexports, ...stars, `export * from ${JSON.stringify(`${path}?${OWN}`)};`].join('\n'), loader: 'js', resolveDir: dirname(path) };
        }
        const contents = await deepen(source(path), dirname(path));
        return contents === undefined ? undefined : { contents, loader: loader(path), resolveDir: dirname(path) };
      });
    },
  };
}
