import { describe, expect, it } from 'vitest';
import { EMAIL_MAX, normalizeInviteEmail } from '../../../lambdas/console/invite-email';
import { InvalidInput } from '../../../lambdas/platform/domain-errors';

describe('the address an owner invites', () => {
  it('is trimmed and lower-cased: one mailbox, one person', () => {
    expect(normalizeInviteEmail('  Ana.Lopez@Example.COM ')).toBe('ana.lopez@example.com');
    expect(normalizeInviteEmail('a+team@sub.example.co.uk')).toBe('a+team@sub.example.co.uk');
  });

  it(`accepts ${EMAIL_MAX} characters and refuses one more`, () => {
    const local = 'x'.repeat(EMAIL_MAX - '@example.com'.length);
    expect(normalizeInviteEmail(`${local}@example.com`)).toHaveLength(EMAIL_MAX);
    expect(() => normalizeInviteEmail(`x${local}@example.com`)).toThrow(InvalidInput);
  });

  it('refuses what is no address, or could smuggle a second one or a header', () => {
    for (const hostile of ['', '   ', 'ana', '@example.com', 'ana@', 'ana@example', 'ana@@example.com', 'a@b@example.com', 'ana @example.com', 'ana@example.com\r\nBcc: x@example.com', 'ana@example.com,bob@example.com', '"ana"@example.com', '<ana@example.com>', 'ana@exa\u202emple.com', 'ana@example..com', 'ana@.example.com']) {
      expect(() => normalizeInviteEmail(hostile), JSON.stringify(hostile)).toThrow(new InvalidInput('Enter the email address of the person to invite, such as name@example.com'));
    }
  });
});
