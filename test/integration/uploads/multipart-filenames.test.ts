import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';

// File names customers send in multipart uploads are kept exactly: raw UTF-8 in `filename="…"`
// (RFC 7578, what browsers and curl send) and `filename*=UTF-8''…` (RFC 5987). Built by hand, byte
// by byte, so the test controls the encoding a FormData would choose for itself.

const service = useTestService();
const BOUNDARY = 'x-boundary-7f3a';
const CSV = ['phone', ...Array.from({ length: 100 }, (_, i) => `(212) 555-${String(3000 + i)}`)].join('\n') + '\n';

function body(disposition: string, extraFields: [string, string][] = [['phone_column', 'phone']]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of extraFields) parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`, 'utf8'));
  parts.push(Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; `, 'utf8'), Buffer.from(disposition, 'utf8'), Buffer.from(`\r\nContent-Type: text/csv\r\n\r\n${CSV}\r\n--${BOUNDARY}--\r\n`, 'utf8')]));
  return Buffer.concat(parts);
}

async function upload(payload: Buffer): Promise<Response> {
  return fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body: payload, headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } });
}

describe('multipart file names', () => {
  const cases: [string, string, string][] = [
    ['raw UTF-8 in filename (RFC 7578)', 'filename="Überblick – 東京 📞.csv"', 'Überblick – 東京 📞.csv'],
    ["filename*=UTF-8'' (RFC 5987)", `filename*=UTF-8''${encodeURIComponent('Données ñ 日本.csv')}`, 'Données ñ 日本.csv'],
    ['filename* wins over its ASCII fallback', `filename="Donnees.csv"; filename*=UTF-8''${encodeURIComponent('Données.csv')}`, 'Données.csv'],
    ['plain ASCII unchanged', 'filename="list 2026.csv"', 'list 2026.csv'],
    // The submitted name, folders and all, as a JSON upload's `filename` is kept (busboy would keep
    // only what follows the last / or \ unless told to preserve the path).
    ['a relative path kept', 'filename="../../etc/passwd.csv"', '../../etc/passwd.csv'],
    ['a Windows path kept', 'filename="C:\\Users\\x\\list.csv"', 'C:\\Users\\x\\list.csv'],
  ];
  for (const [what, disposition, expected] of cases) {
    it(`${what}: stored and echoed exactly`, async () => {
      const res = await upload(body(disposition));
      expect(res.status).toBe(200);
      const created = (await res.json()) as { id: string; original_filename: string };
      expect(created.original_filename).toBe(expected);
      const read = (await (await service.request('GET', `/api/v1/uploads/${created.id}`)).json()) as { original_filename: string };
      expect(read.original_filename).toBe(expected);
    });
  }

  it('a file name over 255 characters is refused, nothing charged, unless filename_override replaces it', async () => {
    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as Record<string, unknown>;
    const long = `${'n'.repeat(252)}.csv`;
    const res = await upload(body(`filename="${long}"`));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toBe("The file part's filename is 256 characters long; at most 255 are kept (send a shorter one, or filename_override)");
    expect(await (await service.request('GET', '/api/v1/credits/balance')).json()).toEqual(before);
    const named = await upload(body(`filename="${long}"`, [['phone_column', 'phone'], ['filename_override', 'short.csv']]));
    expect(named.status).toBe(200);
    expect(((await named.json()) as { original_filename: string }).original_filename).toBe('short.csv');
    const exactly = await upload(body(`filename="${'n'.repeat(251)}.csv"`));
    expect(exactly.status).toBe(200);
  });

  it('a name holding a control or bidirectional-formatting character is refused, however given, nothing charged', async () => {
    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as Record<string, unknown>;
    // Shown as "invoice_exe.CSV" where the name is "invoice_\u202eVSC.exe".
    const spoof = 'invoice_\u202eVSC.exe';
    const part = await upload(body(`filename*=UTF-8''${encodeURIComponent(spoof)}`));
    expect(part.status).toBe(400);
    expect(((await part.json()) as { detail: string }).detail).toBe("The file part's filename holds U+202E, a control or bidirectional-formatting character that can make a file name show as another; remove it");
    const override = await upload(body('filename="ok.csv"', [['phone_column', 'phone'], ['filename_override', 'a\u2066b.csv']]));
    expect(override.status).toBe(400);
    expect(((await override.json()) as { detail: string }).detail).toContain('filename_override holds U+2066');
    const json = await service.request('POST', '/api/v1/uploads', { body: { filename: 'tab\there.csv', phone_numbers: CSV.split('\n').slice(1, 101) } });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { detail: string }).detail).toContain('filename holds U+0009');
    expect(await (await service.request('GET', '/api/v1/credits/balance')).json()).toEqual(before);
    // An override replaces the part's name, so the unsafe one is never kept.
    const replaced = await upload(body(`filename*=UTF-8''${encodeURIComponent(spoof)}`, [['phone_column', 'phone'], ['filename_override', 'invoice.csv']]));
    expect(replaced.status).toBe(200);
  });

  it('a raw control byte in a part header is refused naming it (and the file name, when it is there), nothing charged', async () => {
    const before = (await (await service.request('GET', '/api/v1/credits/balance')).json()) as Record<string, unknown>;
    const named: [string, string][] = [
      ['\x07', 'U+0007'],
      ['\x1b', 'U+001B'],
      ['\x7f', 'U+007F'],
      ['\x00', 'U+0000'],
      ['\r', 'U+000D'],
      ['\n', 'U+000A'],
      ['\r\n', 'U+000D'],
    ];
    for (const [byte, character] of named) {
      const res = await upload(body(`filename="list${byte}.csv"`));
      expect(res.status, JSON.stringify(byte)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(`The file part's filename holds ${character}, a control or bidirectional-formatting character that can make a file name show as another; remove it`);
    }
    const unquoted = await upload(body('filename=list\x07.csv'));
    expect(((await unquoted.json()) as { detail: string }).detail).toContain("The file part's filename holds U+0007");
    // Elsewhere in a part's headers: named, and not called a file name.
    const field = await upload(Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="phone\x07column"\r\n\r\nphone\r\n`, 'latin1'), body('filename="x.csv"', [])]));
    expect(field.status).toBe(400);
    expect(((await field.json()) as { detail: string }).detail).toBe("Malformed multipart body: a part's header holds U+0007, a control character no header may hold; remove it");
    expect(await (await service.request('GET', '/api/v1/credits/balance')).json()).toEqual(before);
  });

  it('form fields the customer names __proto__ or constructor are fields like any other (unknown ones refused by name)', async () => {
    const res = await upload(body('filename="x.csv"', [['__proto__', 'a'], ['constructor', 'b'], ['phone_column', 'phone']]));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/Unrecognized keys: "__proto__", "constructor"/);
    const dup = await upload(body('filename="x.csv"', [['__proto__', 'a'], ['__proto__', 'b'], ['phone_column', 'phone']]));
    expect(dup.status).toBe(400);
    expect(((await dup.json()) as { detail: string }).detail).toMatch(/'__proto__' is given more than once/);
  });
});
