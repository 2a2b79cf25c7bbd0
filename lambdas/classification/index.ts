// Public facade of the classification engine. Other features import only from here.
export * from './vocabulary';
export * from './normalize';
export * from './classify';
export { providerOncePerConfig, type ClassificationPorts } from './provider-port';
export { RULES_VERSION, ANSWER_INTENT_RULES, answerIntentOf } from './rules';
export type { Signals, LineType, LineStatus, LookupOrigin } from './signals';
