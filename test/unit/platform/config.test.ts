import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../lambdas/platform/config';

describe('configuration, parsed once from the environment', () => {
  it('applies the documented defaults and types', () => {
    const c = parseConfig({ TABLE_NAME: 't', WEBHOOKS_ALLOW_LOOPBACK: 'true', UPLOAD_CHUNK_SIZE: '250' });
    expect(c).toMatchObject({ TABLE_NAME: 't', WEBHOOKS_ALLOW_LOOPBACK: true, UPLOAD_CHUNK_SIZE: 250, CLASSIFICATION_PROVIDER: 'simulator', RATE_LIMIT_PER_KEY: 600 });
  });

  it('treats an empty variable as unset', () => {
    expect(parseConfig({ CLASSIFICATION_PROVIDER: '' }).CLASSIFICATION_PROVIDER).toBe('simulator');
  });

  it('knows the Telnyx and Trestle providers, their defaults, and refuses a rate, count or timeout of 0', () => {
    expect(parseConfig({ CLASSIFICATION_PROVIDER: 'telnyx' })).toMatchObject({ CLASSIFICATION_PROVIDER: 'telnyx', CLASSIFICATION_CHAIN: 'paid', TELNYX_LOOKUP_BASE_URL: 'https://api.telnyx.com', TELNYX_CONCURRENCY: 10, TELNYX_REQUESTS_PER_SECOND: 50, TELNYX_TIMEOUT_MS: 10_000, TELNYX_ATTEMPTS: 4 });
    expect(parseConfig({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_REQUESTS_PER_SECOND: '5' })).toMatchObject({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_BASE_URL: 'https://api.trestleiq.com', TRESTLE_REQUESTS_PER_SECOND: 5, TRESTLE_ATTEMPTS: 4 });
    for (const bad of [{ TELNYX_REQUESTS_PER_SECOND: '0' }, { TRESTLE_CONCURRENCY: '0' }, { TRESTLE_ATTEMPTS: '-1' }, { TELNYX_TIMEOUT_MS: '1.5' }, { TRESTLE_BASE_URL: 'not a url' }]) {
      expect(() => parseConfig(bad)).toThrow(new RegExp(`${Object.keys(bad)[0]}: `));
    }
  });

  it('names the bad variable, what it accepts and what it got', () => {
    const attempt = () => parseConfig({ CLASSIFICATION_PROVIDER: 'twillio', UPLOAD_CHUNK_SIZE: 'many' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/CLASSIFICATION_PROVIDER: .*offline.*simulator.*twilio.*telnyx.*trestle.*\(got 'twillio'\)/);
    expect(attempt).toThrow(/UPLOAD_CHUNK_SIZE: .*\(got 'many'\)/);
  });
});
