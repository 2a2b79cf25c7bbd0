import { describe, expect, it } from 'vitest';
import { LIST_PAGE, matchesDraft, matchesUpload, SEARCH_SCAN_LIMIT, searchUploads } from '../../../lambdas/console/upload-search';
import type { UploadRecord } from '../../../lambdas/uploads/upload';

// The console's upload search: a bounded filter over the API's pages.

const uploads = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), original_filename: i % 10 === 0 ? `Spring-${i}.csv` : `list-${i}.csv`, status: i % 2 ? 'completed' : 'failed' }) as UploadRecord);

/** The API's pages over `all`: cursors are offsets. */
function lister(all: UploadRecord[]) {
  const calls: number[] = [];
  const list = async (_org: string, limit: number, cursor?: string) => {
    const from = Number(cursor ?? 0);
    calls.push(from);
    const next = from + limit;
    return { data: all.slice(from, next), nextCursor: next < all.length ? String(next) : null };
  };
  return { list, calls };
}

describe('matchesUpload / matchesDraft', () => {
  it('matches a part of the file name in any case, and the status', () => {
    expect(matchesUpload({ original_filename: 'Spring Campaign.csv', status: 'completed' }, { q: ' spring ' })).toBe(true);
    expect(matchesUpload({ original_filename: 'Spring Campaign.csv', status: 'completed' }, { q: 'spring', status: 'failed' })).toBe(false);
    expect(matchesUpload({ original_filename: 'a.csv', status: 'completed' }, {})).toBe(true);
    // Regular-expression characters are plain text.
    expect(matchesUpload({ original_filename: 'a.csv', status: 'completed' }, { q: '.*' })).toBe(false);
    expect(matchesDraft({ filename: 'Spring.csv' }, { q: 'SPR' })).toBe(true);
    expect(matchesDraft({ filename: 'Spring.csv' }, { status: 'completed' })).toBe(false);
  });
});

describe('searchUploads', () => {
  it('unfiltered: exactly the API page', async () => {
    const { list, calls } = lister(uploads(120));
    const page = await searchUploads(list, 'org', {}, '50');
    expect(page.data.map((u) => u.id)).toEqual(Array.from({ length: 50 }, (_, i) => String(50 + i)));
    expect(page.nextCursor).toBe('100');
    expect(calls).toEqual([50]);
  });
  it('filtered: reads pages until a page of matches, the end, or the scan limit, and resumes at the cursor', async () => {
    const all = uploads(3000);
    const { list, calls } = lister(all);
    const first = await searchUploads(list, 'org', { q: 'spring' }, undefined);
    expect(first.data).toHaveLength(LIST_PAGE);
    expect(first.data.every((u) => u.original_filename.startsWith('Spring'))).toBe(true);
    expect(first.scanned).toBe(500);
    const second = await searchUploads(list, 'org', { q: 'spring' }, first.nextCursor!);
    expect(second.data[0]!.id).toBe('500');
    // Nothing matches: stops after SEARCH_SCAN_LIMIT with a cursor to go on.
    calls.length = 0;
    const none = await searchUploads(list, 'org', { q: 'nothing' }, undefined);
    expect(none).toMatchObject({ data: [], nextCursor: String(SEARCH_SCAN_LIMIT), scanned: SEARCH_SCAN_LIMIT });
    expect(calls).toHaveLength(SEARCH_SCAN_LIMIT / LIST_PAGE);
    const tail = await searchUploads(list, 'org', { status: 'failed' }, '2950');
    expect(tail).toMatchObject({ nextCursor: null, scanned: 50 });
    expect(tail.data).toHaveLength(25);
  });
});
