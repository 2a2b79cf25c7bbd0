import type { Draft } from './types';

// What changed in a draft between what the page showed and what the server has now (a 409 on
// confirm: the mapping was changed in another tab, or the draft moved on), in plain words.

const list = (cols: string[] | undefined) => (cols && cols.length ? cols.join(', ') : 'none');

export function draftChanges(before: Draft, after: Draft, tier: 'standard' | 'max'): string[] {
  const out: string[] = [];
  const a = before.mapping;
  const b = after.mapping;
  if (list(a?.phoneColumns) !== list(b?.phoneColumns)) out.push(`Phone columns: now ${list(b?.phoneColumns)} (was ${list(a?.phoneColumns)}).`);
  const names = (m: Draft['mapping']) => (m?.fullNameColumn ? `full name ${m.fullNameColumn}` : m?.firstNameColumn ? `first ${m.firstNameColumn}, last ${m.lastNameColumn ?? ''}` : 'none');
  if (names(a) !== names(b)) out.push(`Name columns: now ${names(b)} (was ${names(a)}).`);
  const was = before.validation?.price[tier];
  const now = after.validation?.price[tier];
  if (was !== now) out.push(now === undefined ? `The price is no longer known: the upload is ${after.status.replaceAll('_', ' ')}.` : `Price at ${tier}: now ${now.toLocaleString('en-US')} credits (was ${(was ?? 0).toLocaleString('en-US')}).`);
  if (before.status !== after.status && out.length === 0) out.push(`The upload is now ${after.status.replaceAll('_', ' ')}.`);
  return out;
}
