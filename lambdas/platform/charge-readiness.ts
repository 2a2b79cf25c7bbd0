import { readSecretString } from './aws/secrets';
import { lazyModule } from './aws/lazy-module';

/** DescribeSecret, loaded at first use (a chunk of its own: ./aws/sdk/secrets-describe.ts). */
const describeSdk = /* @__PURE__ */ lazyModule(() => import('./aws/sdk/secrets-describe'));
import { nowMs } from './clock';
import type { Config } from './config';
import { logger } from './logger';
import { NotReady } from './domain-errors';
import { perConfig } from './per-config';
import { keyIdForPrivateKey } from './cloudfront-key-ids';

// Ready before it charges (docs/deploy.md): what a paid request needs to be completed is checked
// before any credit is taken, so a stage deployed without its secrets answers 503 naming them
// rather than charging, failing at Finalize and refunding.

/** The port of the check: a secret's string value (undefined when it has none yet), or only how many versions it has. */
export interface SecretReader {
  read(arn: string): Promise<string | undefined>;
  versionCount(arn: string): Promise<number>;
}

/** One thing the configuration needs: `missing` says why it is not in place, or null. */
interface Requirement {
  name: string;
  missing(secrets: SecretReader): Promise<string | null>;
}

/** A PEM private key (the CloudFront key pair's), not an empty or placeholder value. */
export const holdsPrivateKey = (value: string | undefined): boolean => !!value && /-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(value);

/** A Twilio credentials JSON that is filled in (not the deploy-time placeholder). */
export function twilioFilledIn(value: string | undefined): boolean {
  try {
    const parsed = JSON.parse(value ?? '') as { account_sid?: unknown; auth_token?: unknown };
    return typeof parsed.account_sid === 'string' && /^AC[0-9a-fA-F]{32}$/.test(parsed.account_sid) && typeof parsed.auth_token === 'string' && parsed.auth_token.length > 0;
  } catch {
    return false;
  }
}

/**
 * Null when the private key may sign: its public half is one of the key group's (a key of another
 * pair would sign every link with an id CloudFront rejects), or no list is configured.
 */
function unlisted(cfg: Config, privateKeyPem: string, where: string): string | null {
  if (!cfg.DOWNLOADS_CLOUDFRONT_KEY_IDS) return null;
  try {
    if (keyIdForPrivateKey(cfg.DOWNLOADS_CLOUDFRONT_KEY_IDS, privateKeyPem)) return null;
  } catch {
    return `${where} holds a PEM that is not a readable private key`;
  }
  return `${where} holds a private key whose public half is none of the key group's (DOWNLOADS_CLOUDFRONT_KEY_IDS): put the private key of a public key the stage names`;
}

/** What this configuration needs before it may charge (plain rules over the configuration). */
export function requirementsOf(cfg: Config): Requirement[] {
  const requirements: Requirement[] = [];
  if (cfg.DOWNLOADS_CLOUDFRONT_DOMAIN) {
    requirements.push({
      name: 'CloudFront download signing key',
      missing: async ({ read }) => {
        if (!cfg.DOWNLOADS_CLOUDFRONT_KEY_ID && !cfg.DOWNLOADS_CLOUDFRONT_KEY_IDS) return 'neither DOWNLOADS_CLOUDFRONT_KEY_IDS nor DOWNLOADS_CLOUDFRONT_KEY_ID is set';
        if (cfg.DOWNLOADS_SIGNING_PRIVATE_KEY) return holdsPrivateKey(cfg.DOWNLOADS_SIGNING_PRIVATE_KEY) ? unlisted(cfg, cfg.DOWNLOADS_SIGNING_PRIVATE_KEY, 'DOWNLOADS_SIGNING_PRIVATE_KEY') : 'DOWNLOADS_SIGNING_PRIVATE_KEY holds no PEM private key';
        if (!cfg.DOWNLOADS_SIGNING_KEY_SECRET_ARN) return 'neither DOWNLOADS_SIGNING_KEY_SECRET_ARN nor DOWNLOADS_SIGNING_PRIVATE_KEY is set';
        const pem = await read(cfg.DOWNLOADS_SIGNING_KEY_SECRET_ARN);
        if (!holdsPrivateKey(pem)) return `secret ${cfg.DOWNLOADS_SIGNING_KEY_SECRET_ARN} (DOWNLOADS_SIGNING_KEY_SECRET_ARN) holds no PEM private key yet`;
        return unlisted(cfg, pem!, `secret ${cfg.DOWNLOADS_SIGNING_KEY_SECRET_ARN} (DOWNLOADS_SIGNING_KEY_SECRET_ARN)`);
      },
    });
  }
  if (cfg.CLASSIFICATION_PROVIDER === 'twilio') {
    requirements.push({
      name: 'Twilio credentials',
      missing: async ({ read, versionCount }) => {
        if (cfg.TWILIO_ACCOUNT_SID && cfg.TWILIO_AUTH_TOKEN) return null;
        // A function that uses the credentials reads them; one that only charges (the APIs) may not
        // read the token: it sees whether the secret was ever changed from the value the stack
        // created it with (put-secret-value adds a version; `admin doctor` checks the value itself).
        if (cfg.TWILIO_SECRET_ARN) return twilioFilledIn(await read(cfg.TWILIO_SECRET_ARN)) ? null : `secret ${cfg.TWILIO_SECRET_ARN} (TWILIO_SECRET_ARN) holds no {"account_sid": "AC…", "auth_token": "…"} yet`;
        if (cfg.TWILIO_CREDENTIALS_ARN) return (await versionCount(cfg.TWILIO_CREDENTIALS_ARN)) >= 2 ? null : `secret ${cfg.TWILIO_CREDENTIALS_ARN} (TWILIO_CREDENTIALS_ARN) still holds the placeholder it was created with`;
        return 'none of TWILIO_SECRET_ARN, TWILIO_CREDENTIALS_ARN, or TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set';
      },
    });
  }
  for (const provider of ['telnyx', 'trestle'] as const) {
    if (cfg.CLASSIFICATION_PROVIDER !== provider) continue;
    const P = provider.toUpperCase() as 'TELNYX' | 'TRESTLE';
    const [key, secretArn, credentialsArn] = [cfg[`${P}_API_KEY`], cfg[`${P}_SECRET_ARN`], cfg[`${P}_CREDENTIALS_ARN`]];
    requirements.push({
      name: `${provider === 'telnyx' ? 'Telnyx' : 'Trestle'} API key`,
      missing: async ({ read, versionCount }) => {
        if (key) return null;
        if (secretArn) return apiKeyFilledIn(await read(secretArn)) ? null : `secret ${secretArn} (${P}_SECRET_ARN) holds no {"api_key": "…"} yet`;
        // As for Twilio: the functions that only charge see whether the stack's placeholder was replaced.
        if (credentialsArn) return (await versionCount(credentialsArn)) >= 2 ? null : `secret ${credentialsArn} (${P}_CREDENTIALS_ARN) still holds the placeholder it was created with`;
        return `none of ${P}_SECRET_ARN, ${P}_CREDENTIALS_ARN or ${P}_API_KEY are set`;
      },
    });
  }
  return requirements;
}

/** A `{"api_key": "…"}` credentials JSON with a key in it. */
export function apiKeyFilledIn(value: string | undefined): boolean {
  try {
    const parsed = JSON.parse(value ?? '') as { api_key?: unknown };
    return typeof parsed.api_key === 'string' && parsed.api_key.trim().length > 0;
  } catch {
    return false;
  }
}

export interface Missing {
  /** What the client is told (no configuration names or ARNs). */
  name: string;
  /** What the operator is told (logs, `admin doctor`). */
  why: string;
}

/** What is missing; empty when ready. A secret that cannot be read counts as missing. */
export async function missingForCharging(cfg: Config, secrets: SecretReader): Promise<Missing[]> {
  const safe: SecretReader = {
    read: (arn) => secrets.read(arn).catch(() => undefined),
    versionCount: (arn) => secrets.versionCount(arn).catch(() => 0),
  };
  const found = await Promise.all(requirementsOf(cfg).map(async (r) => [r.name, await r.missing(safe)] as const));
  return found.flatMap(([name, why]) => (why === null ? [] : [{ name, why }]));
}

/** A ready answer is kept 5 minutes, a not-ready one 30 s (so a key put in is seen soon). */
export const READY_TTL_MS = 5 * 60_000;
export const NOT_READY_TTL_MS = 30_000;

/** The check cached per container: cheap on every paid request, seen again shortly after a change. */
export function readinessCheck(cfg: Config, secrets: SecretReader): () => Promise<Missing[]> {
  let cached: { at: number; missing: Missing[] } | null = null;
  return async () => {
    const now = nowMs();
    if (cached && now - cached.at < (cached.missing.length ? NOT_READY_TTL_MS : READY_TTL_MS)) return cached.missing;
    const missing = await missingForCharging(cfg, secrets);
    cached = { at: now, missing };
    return missing;
  };
}

const secretsManager: SecretReader = {
  read: (arn) => readSecretString(arn),
  versionCount: async (arn) => {
    const { DescribeSecretCommand, SecretsManagerClient } = await describeSdk();
    return Object.keys((await new SecretsManagerClient({}).send(new DescribeSecretCommand({ SecretId: arn }))).VersionIdsToStages ?? {}).length;
  },
};

const check = /* @__PURE__ */ perConfig((cfg) => readinessCheck(cfg, secretsManager));

/** Refuses with 503 (nothing charged) when what the request needs to be completed is not in place. */
export async function assertReadyToCharge(): Promise<void> {
  const missing = await check()();
  if (!missing.length) return;
  logger.error('not ready to charge: refusing paid work with 503', { missing: missing.map((m) => `${m.name}: ${m.why}`) });
  throw new NotReady(`The service is not ready to take paid work; nothing was charged. Missing: ${missing.map((m) => m.name).join(', ')} (the operator must put it in place; retry later)`);
}
