import { dirname, relative, resolve, sep } from 'node:path';

// A feature uses another only through the modules that feature declares public (docs/architecture.md,
// "Feature boundaries"). The shared platform is not a feature (its own rule keeps it free of them);
// the composition roots wire everything and are exempt.

/**
 * Each feature's public modules, by path inside the feature without extension (`index` for the
 * folder itself). Everything else in a feature is internal to it. A module joins this list
 * deliberately, in review, not by an import that happens to work.
 */
export const PUBLIC_MODULES = {
  admin: ['admin'],
  api: ['api-handler', 'error-envelope', 'routes', 'operation', 'route-fallback'],
  auth: ['authenticate', 'identity-repository', 'api-key'],
  classification: ['index', 'vocabulary', 'normalize', 'normalize-on-demand', 'lookup-usage', 'schemas', 'paid-rate'],
  contacts: ['routes', 'create-contact', 'pool-job', 'pool-lease', 'pool-settle', 'contact-events'],
  credits: ['credits', 'charge-before-write', 'routes'],
  ratelimit: ['rate-limiter', 'shared-limiter'],
  recovery: [],
  // The console is a second front door to uploads and spam: it uses their use cases and records.
  spam: ['routes', 'ports', 'carriers', 'phone', 'numbers', 'daily-run', 'carrier-test/index', 'telephony/index', 'telephony/simulator', 'slot-recovery', 'spam-events'],
  uploads: ['routes', 'workflow', 'pool', 'reconcile', 'sfn-workflow-starter', 'create-upload', 'csv-text', 'request', 'staging', 'upload', 'upload-repository', 'csv', 'plan', 'plan-upload', 'work-file', 'downloads', 'upload-events', 'chunk-plan'],
  webhooks: ['routes', 'delivery-queue-port', 'secret-sealer', 'sqs-delivery-queue', 'url-safety', 'fan-out', 'endpoints', 'events', 'outbox', 'envelope', 'ping'],
};

// Entries (functions/) and composition roots wire everything, so they are exempt.
const EXEMPT = new Set(['composition', 'platform', 'functions']);

export const featureBoundaries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      internal: "'{{module}}' is internal to {{feature}}: use one of its public modules ({{allowed}}), or declare it public in tools/eslint/feature-boundaries.js.",
    },
  },
  create(context) {
    const lambdas = resolve(context.cwd, 'lambdas');
    const here = relative(lambdas, context.filename).split(sep);
    if (here[0] === '..' || here.length < 2 || EXEMPT.has(here[0])) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = relative(lambdas, resolve(dirname(context.filename), source)).replace(/\.(ts|js)$/, '').split(sep);
      const [feature, ...rest] = target;
      if (feature === '..' || feature === here[0] || !(feature in PUBLIC_MODULES)) return;
      const module = rest.length === 0 ? 'index' : rest.join('/');
      const allowed = PUBLIC_MODULES[feature];
      if (allowed.includes(module) || allowed.includes(`${module}/index`)) return;
      context.report({ node: node.source, messageId: 'internal', data: { module: `${feature}/${module}`, feature, allowed: allowed.join(', ') || 'none' } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
