import { defineConfig } from 'vite';

// The console: Preact + TypeScript, built by Vite into web/dist (docs/console.md). Nothing is
// inlined into index.html, so the strict CSP (script-src 'self', style-src 'self') holds.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
});
