/**
 * A module loaded at its first use and kept for the container: `lazyModule(() => import('…'))`.
 * In a Lambda bundle each such `import()` is a chunk of its own (code splitting,
 * lib/bundle-options.ts), so a client a request path rarely uses costs nothing at a cold start
 * (docs/performance.md, "Cold starts"). A failed load is not kept: the next use tries again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
}
