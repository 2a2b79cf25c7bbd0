import { describe, expect, it } from 'vitest';
import { MAX_CSV_BYTES, readMultipart } from '../../../lambdas/uploads/request';
import { setAsideLargestPart } from '../../../lambdas/uploads/multipart-set-aside';

// Reading a body with its largest part set aside must answer exactly what busboy answers reading
// it whole: the same fields, file bytes and filename, or the same refusal.

const B = 'xYz-b0undary';
const CT = `multipart/form-data; boundary=${B}`;

const field = (name: string, value: string, boundary = B) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (content: string | Buffer, name = 'file', filename = 'list.csv', boundary = B) =>
  Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
const body = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
const close = (boundary = B) => `--${boundary}--\r\n`;

type Outcome = { fields: Record<string, string>; file: string | null; filename: string | null } | { refused: string };

async function outcome(bytes: Buffer, contentType: string, setAsideFrom: number): Promise<Outcome> {
  try {
    const read = await readMultipart(bytes, contentType, setAsideFrom);
    return { fields: { ...read.fields }, file: read.file ? read.file.toString('latin1') : null, filename: read.filename };
  } catch (error) {
    return { refused: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Both ways alike; answers whether the body was read with a part set aside. */
async function alike(bytes: Buffer, contentType = CT): Promise<boolean> {
  const [aside, whole] = await Promise.all([outcome(bytes, contentType, 0), outcome(bytes, contentType, Infinity)]);
  expect(aside).toEqual(whole);
  return setAsideLargestPart(bytes, contentType, 0) !== null;
}

const CSV = 'phone,first_name\r\n+12125550143,Grace\r\n"+1 (646) 555-0100","O""Neil"\r\n';

describe('a multipart body read with its largest part set aside', () => {
  it('answers as busboy does on plainly laid out bodies, and sets the part aside', async () => {
    expect(await alike(body(field('phone_column', 'phone'), filePart(CSV), close()))).toBe(true);
    expect(await alike(body(filePart(CSV), field('phone_column', 'phone'), field('validation_tier', 'max'), close()))).toBe(true);
    // Content holding CRLFs, dashes, the boundary without its CRLF before it, and a near-delimiter.
    expect(await alike(body(filePart(`a,b\r\nz--${B}\r\n\r\n-${B}\r\n--xYz\r\n\r\n--\r\n`), close()))).toBe(true);
    expect(await alike(body(filePart(''), close()))).toBe(true);
    // Quoted boundary with characters a token may not hold; an upper-case media type.
    const odd = "a'()+_,-./:=? z";
    expect(await alike(body(field('x', '1', odd), filePart(CSV, 'file', 'a.csv', odd), close(odd)), `Multipart/Form-Data; boundary="${odd}"`)).toBe(true);
    // Epilogue after the closing boundary; a part without headers, the largest.
    expect(await alike(body(filePart(CSV), close(), 'epilogue bytes\r\n--xYz'))).toBe(true);
    expect(await alike(body(field('a', 'b'), `--${B}\r\n\r\n${CSV}${CSV}\r\n`, filePart(CSV), close()))).toBe(true);
    // UTF-8 filename and content.
    expect(await alike(body(filePart('phone,name\r\n+12125550143,Zoë\r\n', 'file', 'Überblick.csv'), close()))).toBe(true);
  });

  it('answers as busboy does when the part set aside turns out to be a field, a second file or another name', async () => {
    const big = 'v'.repeat(70 * 1024);
    expect(await alike(body(field('phone_column', big), filePart(CSV), close()))).toBe(true);
    expect(await alike(body(filePart(CSV), filePart(CSV + CSV, 'file', 'second.csv'), close()))).toBe(true);
    expect(await alike(body(filePart(CSV + CSV, 'other'), filePart(CSV), close()))).toBe(true);
    expect(await alike(body(field('phone_column', 'a'), field('phone_column', 'b'), filePart(CSV), close()))).toBe(true);
  });

  it('leaves to busboy alone every body laid out otherwise, with the same answer', async () => {
    const cases: [Buffer, string?][] = [
      [body('preamble\r\n', filePart(CSV), close())],
      [body(filePart(CSV))], // no closing boundary
      [body(filePart(CSV), `--${B}`)], // closing boundary cut short
      [body(filePart(`x\r\n--${B}junk`), close())], // a delimiter followed by neither CRLF nor --
      [body(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n--${B}\r\n\r\n${CSV}\r\n`, close())], // a delimiter in a header block
      [Buffer.from(body(filePart(CSV), close()).toString('latin1').replaceAll('\r\n', '\n'), 'latin1')], // LF line ends
      [body(filePart(CSV), close()), `multipart/form-data; boundary=${B}; charset=utf-8`], // another parameter
      [body(filePart(CSV), close()), `multipart/form-data; boundary="${B}\\"x"`], // an escape
      [body(filePart(CSV), close()), 'multipart/form-data'], // no boundary
      [Buffer.alloc(0)],
    ];
    for (const [bytes, contentType] of cases) expect(await alike(bytes, contentType)).toBe(false);
  });

  it('holds busboy file size limit: a part of MAX_CSV_BYTES is refused, one byte less is read', async () => {
    const content = Buffer.alloc(MAX_CSV_BYTES, 'a');
    for (const size of [MAX_CSV_BYTES, MAX_CSV_BYTES - 1]) {
      const bytes = body(filePart(content.subarray(0, size)), close());
      const [aside, whole] = [await outcome(bytes, CT, 0), await outcome(bytes, CT, Infinity)];
      if ('refused' in whole) expect(aside).toEqual(whole);
      else expect('file' in aside && aside.file?.length === size && whole.file?.length === size).toBe(true);
    }
  });

  it('answers as busboy does on randomly damaged bodies', async () => {
    const tokens = ['\r\n', '\r', '\n', '--', `--${B}`, `\r\n--${B}`, `\r\n--${B}--`, '\r\n\r\n', 'Content-Disposition: form-data; name="file"; filename="f.csv"', 'name="phone_column"', '"', ';', 'x'];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let setAside = 0;
    for (let round = 0; round < 400; round++) {
      let text = body(field('phone_column', 'phone'), filePart(CSV), field('validation_tier', 'max'), close()).toString('latin1');
      for (let k = 0, edits = 1 + random(3); k < edits; k++) {
        const at = random(text.length + 1);
        text = random(2) ? text.slice(0, at) + tokens[random(tokens.length)]! + text.slice(at) : text.slice(0, at) + text.slice(at + 1 + random(4));
      }
      if (await alike(Buffer.from(text, 'latin1'))) setAside++;
    }
    // Most damage leaves the layout plain (inside the CSV or a field): those were read set aside.
    expect(setAside).toBeGreaterThan(100);
  });
});
