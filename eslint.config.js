import tseslint from 'typescript-eslint';
import { featureBoundaries } from './tools/eslint/feature-boundaries.js';

// The layers the code keeps (docs/architecture.md), held by the linter; test/unit/platform/
// lint-rules.test.ts checks that a deliberate violation of each fails.
const FEATURES = ['admin', 'api', 'auth', 'classification', 'contacts', 'credits', 'ratelimit', 'recovery', 'spam', 'uploads', 'webhooks'];

/** The spec's rules: plain functions, no storage, no AWS, no runtime configuration. */
export const RULE_FILES = [
  'lambdas/**/*-rules.ts',
  'lambdas/classification/{rules,identity,normalize,signals,vocabulary,nanp-metadata}.ts',
  'lambdas/uploads/{plan,csv,results,processed-file,content-disposition}.ts',
  'lambdas/contacts/contact.ts',
  'lambdas/spam/{limits,edge-trigger,carriers,verification-code,phone}.ts',
  'lambdas/webhooks/{retry-policy,signature,verify-signature}.ts',
  'lambdas/ratelimit/gcra.ts',
];

/** The HTTP layer: the one place that speaks HTTP statuses; everything else throws domain errors. */
export const HTTP_LAYER = ['lambdas/api/**', 'lambdas/platform/http/**', 'lambdas/functions/http/**'];

const noLocal = { group: ['**/local/**', '**/local'], message: 'lambdas/ is what AWS runs: local stand-ins live in local/ and are wired by the local runtime.' };

export default tseslint.config(
  { ignores: ['node_modules/**', 'cdk.out/**', '.data/**', 'web/dist/**', '.test-cache/**', '.local-build/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/platform/config.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noLocal] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through lambdas/platform/config.ts (parsed once, validated).' }],
    },
  },
  {
    // zod/mini through one module that also sets its English messages: a feature importing zod
    // itself could bring classic zod (every schema method, ~65 KB per bundle) or unset messages.
    // zod-json-schema.ts is the JSON Schema generator's own door (see zod.ts).
    files: ['lambdas/**/*.ts'],
    ignores: ['lambdas/platform/zod.ts', 'lambdas/platform/zod-json-schema.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "ImportDeclaration[source.value=/^zod($|\\u002F)/]", message: "Import zod through lambdas/platform/zod.ts (`import * as z from '../platform/zod'`): zod/mini with its English messages." },
      ],
    },
  },
  {
    files: ['lambdas/**/*.ts'],
    plugins: { project: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: { 'project/feature-boundaries': 'error' },
  },
  {
    // Entries are a tier of their own (lambdas/functions/{http,steps,queues,jobs}): only they wire a
    // runtime's ports (composition/) into use cases and mount operations on the HTTP stack (api/).
    // Features are libraries: they take ports as parameters and never reach for a runtime.
    files: ['lambdas/**/*.ts'],
    ignores: [...HTTP_LAYER, 'lambdas/functions/**', 'lambdas/composition/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { regex: '(^|/)composition/', message: 'Only an entry (lambdas/functions/) wires a composition root: take the ports as a parameter.', allowTypeImports: true },
        { regex: '(^|/)api/', message: 'Only an entry (lambdas/functions/http/) mounts operations on the HTTP stack (lambdas/api/).' },
        { regex: '(^|/)functions/', message: 'Nothing in lambdas/ imports an entry: lib/ deploys them and local/ runs them.' },
        // A rule says what went wrong (lambdas/platform/domain-errors.ts); which status and headers
        // that is, is the HTTP layer's business (lambdas/platform/http/error-response.ts, one table).
        { regex: '(^|/)errors$', message: 'Only the HTTP layer builds HTTP errors: throw a domain error from lambdas/platform/domain-errors.ts.' },
      ] }],
    },
  },
  {
    files: ['lambdas/composition/**/*.ts', 'lambdas/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)functions/', message: 'Nothing in lambdas/ imports an entry: lib/ deploys them and local/ runs them.' }] }],
    },
  },
  {
    // The shared platform serves every feature and knows none.
    files: ['lambdas/platform/**/*.ts'],
    ignores: ['lambdas/platform/config.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noLocal, { group: [...FEATURES, 'functions', 'composition'].flatMap((f) => [`../${f}/*`, `../../${f}/*`, `../../${f}/*/*`]), message: 'The platform must not depend on a feature, an entry or a composition root (a type-only import of a feature type is allowed).', allowTypeImports: true }] }],
    },
  },
  {
    // Uploads and contacts do not call each other: a pool upload's outcome reaches its contacts
    // through the workflow's NotifyPool step (contacts/pool-step.ts), and contacts use uploads only
    // through the module uploads keeps for them (uploads/pool.ts).
    files: ['lambdas/uploads/**/*.ts'],
    ignores: RULE_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noLocal, { group: ['**/contacts/*', '**/contacts'], message: 'Uploads never calls contacts: a pool upload\'s contacts are settled by the workflow\'s NotifyPool step.' }] }],
    },
  },
  {
    files: ['lambdas/contacts/**/*.ts'],
    ignores: RULE_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noLocal, { group: ['**/uploads/*', '!**/uploads/pool'], message: 'Contacts use uploads only through uploads/pool.ts, its public module for them.' }] }],
    },
  },
  {
    files: RULE_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            noLocal,
            { group: ['@aws-sdk/*', 'aws-lambda', '@middy/*'], message: 'A spec rule is a plain function: no AWS SDK, no Lambda types, no middleware.' },
            { group: ['**/*-repository', '**/platform/table', '**/platform/blob'], message: 'A spec rule does not touch storage (types of stored records are allowed).', allowTypeImports: true },
          ],
        },
      ],
    },
  },
);
