import { InvalidInput } from '../platform/domain-errors';

/** RFC 5321's limit on a forward path, and so on an address people can receive mail at. */
export const EMAIL_MAX = 254;

/**
 * The address an owner invites, as the service keeps it: trimmed and lower-cased (two spellings of
 * one mailbox are one person to the organization), one `@` with something on either side, no spaces
 * or control characters, at most EMAIL_MAX characters. Anything else is a 400 in plain words.
 */
export function normalizeInviteEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const refuse = () => new InvalidInput('Enter the email address of the person to invite, such as name@example.com');
  if (email.length === 0 || email.length > EMAIL_MAX) throw refuse();
  if (/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069<>"',;:()[\]\\]/u.test(email)) throw refuse();
  const at = email.indexOf('@');
  if (at <= 0 || at !== email.lastIndexOf('@') || at === email.length - 1) throw refuse();
  const domain = email.slice(at + 1);
  if (!/^[^.]+(\.[^.]+)+$/.test(domain)) throw refuse();
  return email;
}
