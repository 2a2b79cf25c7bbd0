// What the console page says and marks, as plain functions: failed calls, counts, the current nav item.
import { describe, expect, it } from 'vitest';
import { describeFailure, fieldRefusal, UNREACHABLE } from '../../../web/src/api-words';

// A console call that failed without a detail showed the browser's "Failed to fetch" or
// "Request failed (502)": now a sentence a customer can act on.
describe('the console says a failed call in words', () => {
  it("the API's detail as it is, string or {message}", () => {
    expect(describeFailure('Not enough credits', 402)).toBe('Not enough credits');
    expect(describeFailure({ message: 'Fewer than 100 numbers', min: 100 }, 422)).toBe('Fewer than 100 numbers');
  });

  it('no answer at all: the service could not be reached', () => {
    expect(describeFailure(null, 0)).toBe(UNREACHABLE);
    expect(UNREACHABLE).not.toMatch(/fetch/i);
  });

  it('an answer without a detail (a gateway error page): what kind of failure, in words', () => {
    expect(describeFailure(null, 502)).toBe('The service had a problem answering (502). Try again in a moment.');
    expect(describeFailure('', 503)).toBe('The service had a problem answering (503). Try again in a moment.');
    expect(describeFailure(null, 404)).toBe('The request was refused (404).');
  });
});

describe('a refused field, said beside it', () => {
  it("leaves out the API's field prefix (for integrators), keeps the reason", () => {
    expect(fieldRefusal('Invalid url: URL host must resolve to a public address')).toBe('URL host must resolve to a public address');
    expect(fieldRefusal('Invalid callback_url: URL must use https')).toBe('URL must use https');
    expect(fieldRefusal('Ping failed: the receiver answered 500')).toBe('Ping failed: the receiver answered 500');
  });
});

describe('counts in words', () => {
  it('singular for exactly one, grouped digits', async () => {
    const { counted } = await import('../../../web/src/format');
    expect(counted(1, 'second')).toBe('1 second');
    expect(counted(2, 'second')).toBe('2 seconds');
    expect(counted(0, 'number')).toBe('0 numbers');
    expect(counted(12_500, 'number')).toBe('12,500 numbers');
  });
});

describe('the nav item marked current (aria-current)', () => {
  it('Uploads on the list at / and at /uploads (where Discard lands) and on an upload; New upload on its own page', async () => {
    const { isCurrentNav } = await import('../../../web/src/nav');
    for (const path of ['/', '/uploads', '/uploads/3f1c']) expect(isCurrentNav(path, '/'), path).toBe(true);
    expect(isCurrentNav('/uploads/new', '/')).toBe(false);
    expect(isCurrentNav('/uploads/new', '/uploads/new')).toBe(true);
    expect(isCurrentNav('/credits', '/')).toBe(false);
    expect(isCurrentNav('/credits', '/credits')).toBe(true);
  });
});
