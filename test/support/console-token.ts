import { SignJWT, importJWK } from 'jose';
import type { TestService } from './runtime';

export type SigningKey = Parameters<SignJWT['sign']>[0];
export const CONSOLE_AUDIENCE = 'urn:phone-validation:console';

/** An access token as the runtime's OIDC provider issues it (its key, issuer, the console audience); overrides forge bad ones. */
export async function consoleToken(service: TestService, userId: string, overrides: { key?: SigningKey; aud?: string; iss?: string; exp?: number | null } = {}): Promise<string> {
  const jwk = service.runtime.console!.keys.signing;
  const key = overrides.key ?? ((await importJWK(jwk, 'RS256')) as SigningKey);
  const token = new SignJWT({ scope: 'console' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
    .setSubject(userId)
    .setIssuer(overrides.iss ?? `${service.url}/oidc`)
    .setAudience(overrides.aud ?? CONSOLE_AUDIENCE)
    .setIssuedAt();
  // exp: null forges a token that never expires.
  if (overrides.exp !== null) token.setExpirationTime(overrides.exp ?? Math.floor(Date.now() / 1000) + 600);
  return token.sign(key);
}
