import { providerOncePerConfig, type ClassificationPorts } from '../classification';

// The AWS root's classification ports, apart from ./aws.ts: importing the classification facade
// brings libphonenumber-js and the +1 tables (normalize.ts), which esbuild keeps once imported, so
// only the functions that classify (the chunk step, the carrier tests) import this module.

let classification: ClassificationPorts | null = null;

/** Classifying chunks: the provider CLASSIFICATION_PROVIDER names, built at the first chunk and reused by every later one of the container (its secret read once). */
export function awsClassificationPorts(): ClassificationPorts {
  classification ??= { provider: providerOncePerConfig() };
  return classification;
}
