import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, SETTINGS } from '../../../lambdas/platform/config';

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

  it('reads numbers as JavaScript reads a numeral, and refuses what is not a whole number in range', () => {
    expect(parseConfig({ UPLOAD_CHUNK_SIZE: ' 250 ', RATE_LIMIT_PER_KEY: '1e3', SPAM_RUN_CONCURRENCY: '0' })).toMatchObject({ UPLOAD_CHUNK_SIZE: 250, RATE_LIMIT_PER_KEY: 1000, SPAM_RUN_CONCURRENCY: 0 });
    for (const bad of ['1.5', '-1', 'NaN', 'Infinity', '1e400', '9007199254740993', 'ten']) {
      expect(() => parseConfig({ UPLOAD_CHUNK_SIZE: bad }), bad).toThrow(`UPLOAD_CHUNK_SIZE: a whole number, 0 or more (got '${bad}')`);
    }
    expect(() => parseConfig({ TELNYX_ATTEMPTS: '0' })).toThrow("TELNYX_ATTEMPTS: a whole number, 1 or more (got '0')");
    expect(parseConfig({ PROVIDER_FAILURE_MAX_SHARE: '0.25' }).PROVIDER_FAILURE_MAX_SHARE).toBe(0.25);
    for (const bad of ['1.01', '-0.1', 'half', 'NaN']) expect(() => parseConfig({ PROVIDER_FAILURE_MAX_SHARE: bad }), bad).toThrow(`PROVIDER_FAILURE_MAX_SHARE: a number from 0 to 1 (got '${bad}')`);
  });

  it('takes a provider base URL over http or https only', () => {
    expect(parseConfig({ TELNYX_LOOKUP_BASE_URL: 'http://127.0.0.1:4010' }).TELNYX_LOOKUP_BASE_URL).toBe('http://127.0.0.1:4010');
    for (const bad of ['ftp://api.telnyx.com', 'api.telnyx.com', 'file:///etc/passwd']) expect(() => parseConfig({ TELNYX_LOOKUP_BASE_URL: bad }), bad).toThrow(`TELNYX_LOOKUP_BASE_URL: an http or https URL (got '${bad}')`);
  });

  it('turns a switch on with the exact word true only, and leaves every other variable out', () => {
    expect(parseConfig({ WEBHOOKS_ALLOW_LOOPBACK: 'TRUE', S3_FORCE_PATH_STYLE: '1' })).toMatchObject({ WEBHOOKS_ALLOW_LOOPBACK: false, S3_FORCE_PATH_STYLE: false });
    const parsed = parseConfig({ PATH: '/bin', TABLE_NAME: 't' });
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(SETTINGS).sort());
    expect(parsed).not.toHaveProperty('PATH');
    expect(parsed.FILES_BUCKET).toBeUndefined();
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      parseConfig({ LOOKUP_CACHE: 'maybe', DEVICE_LAB_MAX_POLLS: '-3', TABLE_NAME: 't' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual(["LOOKUP_CACHE: one of on, off (got 'maybe')", "DEVICE_LAB_MAX_POLLS: a whole number, 0 or more (got '-3')"]);
  });
});
