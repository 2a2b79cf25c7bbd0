import { describe, expect, it } from 'vitest';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';
import { filesBucket, getObject, s3 } from '../../../lambdas/platform/blob';
import { keys } from '../../../lambdas/uploads/upload';
import { TIERS } from '../../../lambdas/classification/vocabulary';

// Issue 30 item 5: any `statuses` filter with any sort, through the API, equals a filter and
// stable sort of the full processed file; the slice base and its index are written at finalize;
// hostile filters are refused; an upload without an index (finalized before it existed) still
// answers from its original.

const service = useTestService();

async function fetchText(url: string): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await fetch(url)).arrayBuffer());
}

/** 160 named contacts, one number each, some formula-looking cells; no quoted line breaks: a row is a line. */
function csv(): string {
  const lines = ['id,first,last,phone,notes'];
  for (let i = 0; i < 160; i++) lines.push(`${i},Ann${i % 7},Lee${i % 5},(212) 555-${String(2000 + i).padStart(4, '0')},${i % 9 === 0 ? '=HYPERLINK("x")' : `"note, ${i}"`}`);
  return lines.join('\r\n') + '\r\n';
}

const lastField = (line: string): string => line.slice(line.lastIndexOf(',') + 1);

describe('slices: any filter with any sort', () => {
  it('equal a filter and stable sort of the full processed file, for every combination asked; hostile filters refused', async () => {
    const { org, key } = await newCustomer({ name: 'Slices', credits: 1000, subscriptionActive: true });
    const form = new FormData();
    for (const [k, v] of Object.entries({ phone_column: 'phone', first_name_column: 'first', last_name_column: 'last' })) form.append(k, v);
    form.append('file', new Blob([csv()], { type: 'text/csv' }), 'slices.csv');
    const created = await fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: string };
    await service.runtime.settleWorkflows();
    const upload = { id, organization_id: org.id };
    expect(await getObject(filesBucket(), keys.sliceIndex(upload))).not.toBeNull();

    const get = (query: string) => service.request('GET', `/api/v1/uploads/${id}/download/processed${query}`, { key });
    const slice = async (query: string): Promise<string[]> => {
      const res = await get(query);
      expect(res.status).toBe(200);
      return (await fetchText(((await res.json()) as { url: string }).url)).split('\r\n').filter(Boolean);
    };
    const [header, ...rows] = await slice('');
    const present = TIERS.filter((t) => rows.some((r) => lastField(r) === t));
    expect(present.length).toBeGreaterThan(1);
    const expected = (statuses: string[] | null, sorted: boolean): string[] => {
      const kept = statuses ? rows.filter((r) => statuses.includes(lastField(r))) : [...rows];
      if (sorted) kept.sort((a, b) => TIERS.indexOf(lastField(a)) - TIERS.indexOf(lastField(b)));
      return [header!, ...kept];
    };
    const filters: (string[] | null)[] = [null, [present[0]!], present.slice(0, 2), [...present].reverse(), [...TIERS], ['Unknown'], [present[1]!, 'Unknown']];
    for (const statuses of filters) {
      for (const sorted of [false, true]) {
        const query = new URLSearchParams({ ...(statuses ? { statuses: statuses.join(',') } : {}), ...(sorted ? { sort: 'best_status' } : {}) }).toString();
        expect(await slice(query ? `?${query}` : '')).toEqual(expected(statuses, sorted));
        // With the identity column: the same rows, one more column.
        const withIdentity = await slice(`?${query}${query ? '&' : ''}include_identity=true`);
        expect(withIdentity.map((l) => l.slice(0, l.lastIndexOf(',')))).toEqual(expected(statuses, sorted));
        expect(withIdentity[0]!.endsWith(',Service_Identity')).toBe(true);
      }
    }
    // Duplicates and order in the filter change nothing.
    expect(await slice(`?statuses=${encodeURIComponent([present[0], present[0], present[1]].join(','))}`)).toEqual(expected(present.slice(0, 2), false));
    // neutralize_formulas: the formula cells quoted, every other byte as without it.
    const neutral = await slice(`?statuses=${encodeURIComponent(present.join(','))}&sort=best_status&neutralize_formulas=true`);
    expect(neutral).toEqual(expected(present, true).map((l) => l.replace(',=HYPERLINK("x")', `,"'=HYPERLINK(""x"")"`)));

    for (const hostile of ['statuses=', 'statuses=,,', 'statuses=Likely%20Answer', `statuses=${encodeURIComponent(present[0]!)},nope`]) {
      const res = await get(`?${hostile}`);
      expect(res.status).toBe(400);
      // The spec's envelope, naming the valid values.
      expect(((await res.json()) as { detail: string }).detail).toContain('1 - Likely Right-Party Answer');
    }

    // An upload finalized before the index existed: the slice is built from its original, the same.
    await (await s3()).send(new DeleteObjectCommand({ Bucket: filesBucket(), Key: keys.sliceIndex(upload) }));
    expect(await slice(`?statuses=${encodeURIComponent(present.slice(1).join(','))}&include_identity=false`)).toEqual(expected(present.slice(1), false));
  });
});
