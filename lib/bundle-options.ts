/**
 * How every Lambda bundle is built, for the CDK app's code and the TypeScript that reads it (the
 * bench: bench/bundles.ts, bench/bundle-child.ts; the tests): the options live in
 * tools/bundle-lambda.mjs, which tools/build-function.mjs (lib/service-function.ts's asset build) runs, so
 * that what is measured is what is deployed. See that file for what they are and why.
 */
export { BUNDLE_ALIASES, BUNDLE_BUILD } from '../tools/bundle-lambda.mjs';
