import { SETTINGS } from '../lambdas/platform/config';

// The settings a running instance shares with the admin CLI (through its lock: local/instance-lock.ts),
// so a job an admin command runs (run-contact-pool, spam-run) runs as the instance's own would: with
// its table and buckets, its classification provider and its development switches
// (WEBHOOKS_ALLOW_LOOPBACK). Secrets are never shared (the lock answers any local user): the admin
// shell supplies its own. Nor is FAULT_CRASH_AT, a test's crash point for the instance's process.

const NOT_SHARED = new Set(['FAULT_CRASH_AT', 'AWS_LAMBDA_FUNCTION_NAME']);

/** A setting that is a secret: its value, not the name of where it is kept (`…_ARN`). */
export const isSecretSetting = (name: string): boolean => /(SECRET|TOKEN|PRIVATE_KEY|API_KEY|PASSWORD)$/.test(name);

/** The names of the settings an instance shares: the service configuration's, less secrets. */
export const SHARED_SETTINGS: readonly string[] = Object.keys(SETTINGS).filter((name) => !isSecretSetting(name) && !NOT_SHARED.has(name));

/** The shared settings this environment sets (empty values count as unset, as the configuration reads them). */
export function sharedSettings(env: Record<string, string | undefined>): Record<string, string> {
  const shared: Record<string, string> = {};
  for (const name of SHARED_SETTINGS) {
    const value = env[name];
    if (value !== undefined && value !== '') shared[name] = value;
  }
  return shared;
}

/**
 * The admin CLI's settings over its environment (lambdas/platform/config.ts, configureRoot): each
 * shared setting is the instance's value, or unset when the instance does not set it. Secrets and
 * everything else are left to the environment.
 */
export function sharedOverrides(settings: Record<string, string>): Record<string, string | undefined> {
  const overrides: Record<string, string | undefined> = {};
  for (const name of SHARED_SETTINGS) {
    const value = settings[name];
    overrides[name] = typeof value === 'string' && value !== '' ? value : undefined;
  }
  return overrides;
}

/** Makes `env` carry exactly the instance's shared settings (sharedOverrides applied to a copy of an environment). */
export function adoptSharedSettings(env: Record<string, string | undefined>, settings: Record<string, string>): void {
  for (const [name, value] of Object.entries(sharedOverrides(settings))) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
}
