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

  it('names the bad variable, what it accepts and what it got', () => {
    const attempt = () => parseConfig({ CLASSIFICATION_PROVIDER: 'twillio', UPLOAD_CHUNK_SIZE: 'many' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/CLASSIFICATION_PROVIDER: .*offline.*simulator.*twilio.*\(got 'twillio'\)/);
    expect(attempt).toThrow(/UPLOAD_CHUNK_SIZE: .*\(got 'many'\)/);
  });
});
