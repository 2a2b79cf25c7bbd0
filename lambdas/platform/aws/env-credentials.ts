import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in every Lambda bundle (BUNDLE_ALIASES in tools/bundle-lambda.mjs):
 * each SDK client's default credential chain becomes the environment only. Lambda puts the
 * execution role's credentials in AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN
 * (docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html, "Defined runtime environment
 * variables"), and the default chain reads the environment first anyway; what the alias drops is
 * the SSO, ini-file, process, web-identity, login, container and instance-metadata providers with
 * their STS/SSO clients (@aws-sdk/nested-clients): 110–130 KB of every bundle. The consequence: a
 * deployed function can use only the role's credentials the runtime put in its environment. Code
 * run by tsx (the local runtime, the admin CLI, tests) is not bundled and keeps the full chain.
 */
export const defaultProvider = (init?: FromEnvInit) => fromEnv(init);
