import { describe, expect, it } from 'vitest';
import { assertUrlNotRegistered, claimStands, duplicateOf, URL_CLAIM_BOUND_MS, urlIdentity } from '../../../lambdas/webhooks/duplicate-url';
import { Conflict } from '../../../lambdas/platform/domain-errors';

const endpoints = [
  { id: 'a', url: 'https://hooks.example.com/in?team=1' },
  { id: 'b', url: 'https://Other.example.com' },
];

describe('one endpoint per URL and organization', () => {
  it('treats spellings of the same URL as one: host case, default port, empty path, fragment, spaces', () => {
    expect(duplicateOf(endpoints, 'HTTPS://HOOKS.example.com:443/in?team=1')).toBe('a');
    expect(duplicateOf(endpoints, 'https://hooks.example.com/in?team=1#x')).toBe('a');
    expect(duplicateOf(endpoints, ' https://other.example.com/ ')).toBe('b');
    expect(urlIdentity('http://h.example.com:80')).toBe('http://h.example.com/');
  });

  it('keeps path, query and port differences apart', () => {
    expect(duplicateOf(endpoints, 'https://hooks.example.com/IN?team=1')).toBeNull();
    expect(duplicateOf(endpoints, 'https://hooks.example.com/in?team=2')).toBeNull();
    expect(duplicateOf(endpoints, 'https://hooks.example.com/in/?team=1')).toBeNull();
    expect(duplicateOf(endpoints, 'https://hooks.example.com:8443/in?team=1')).toBeNull();
    expect(duplicateOf(endpoints, 'http://hooks.example.com/in?team=1')).toBeNull();
  });

  it('ignores the endpoint being changed, and compares non-URLs as written', () => {
    expect(duplicateOf(endpoints, 'https://hooks.example.com/in?team=1', 'a')).toBeNull();
    expect(duplicateOf([{ id: 'c', url: 'not a url' }], 'not a url')).toBe('c');
    expect(duplicateOf([{ id: 'c', url: 'not a url' }], 'not  a url')).toBeNull();
    expect(duplicateOf([], 'https://x.example.com/')).toBeNull();
  });

  it('refuses with a 409 Conflict naming the existing endpoint', () => {
    expect(() => assertUrlNotRegistered(endpoints, 'https://other.example.com/')).toThrow(Conflict);
    expect(() => assertUrlNotRegistered(endpoints, 'https://other.example.com/')).toThrow(/already has a webhook endpoint for this URL \(b\)/);
    expect(() => assertUrlNotRegistered(endpoints, 'https://new.example.com/')).not.toThrow();
  });
});

describe('a URL claim stands or was left by a crash', () => {
  const identity = urlIdentity('https://hooks.example.com/in');
  const now = 10 * URL_CLAIM_BOUND_MS;
  it('stands while its registration may still be under way, whatever its endpoint says', () => {
    expect(claimStands({ claimed_at: now - URL_CLAIM_BOUND_MS + 1 }, null, identity, now)).toBe(true);
    expect(claimStands({ claimed_at: now }, { url: 'https://elsewhere.example.com/' }, identity, now)).toBe(true);
  });
  it('stands, however old, while its endpoint holds the URL (any spelling)', () => {
    expect(claimStands({ claimed_at: 0 }, { url: 'HTTPS://hooks.example.com:443/in#x' }, identity, now)).toBe(true);
  });
  it('falls once older than the bound with its endpoint gone or moved to another URL', () => {
    expect(claimStands({ claimed_at: now - URL_CLAIM_BOUND_MS }, null, identity, now)).toBe(false);
    expect(claimStands({ claimed_at: 0 }, { url: 'https://hooks.example.com/in?moved=1' }, identity, now)).toBe(false);
  });
});
