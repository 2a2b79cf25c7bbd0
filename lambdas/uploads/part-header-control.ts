// busboy refuses a part header holding a raw control byte (a BEL, ESC, NUL, DEL, or a CR or LF
// inside a quoted file name) as "Malformed part header", which names neither the byte nor where it
// is. Read only after busboy has refused a body: which byte, and whether it is in the file name.

export interface PartHeaderControl {
  /** The byte as `U+XXXX` (content-disposition.ts names characters the same way). */
  character: string;
  /** Whether it lies in a `filename` parameter's value (else elsewhere in a part's headers). */
  inFilename: boolean;
}

const CR = 13;
const LF = 10;
const TAB = 9;
const QUOTE = 34;

/** The multipart boundary a Content-Type names, or null. */
export function boundaryOf(contentType: string): string | null {
  const found = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return found ? (found[1] ?? found[2])! : null;
}

/** The first control byte in any part's header lines, or null when there is none. */
export function controlInPartHeaders(body: Buffer, contentType: string): PartHeaderControl | null {
  const boundary = boundaryOf(contentType);
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  for (let at = body.indexOf(delimiter); at >= 0; at = body.indexOf(delimiter, at + delimiter.length)) {
    const headers = at + delimiter.length;
    // The closing delimiter (`--boundary--`) starts no headers.
    if (body[headers] === 45 && body[headers + 1] === 45) return null;
    const end = body.indexOf('\r\n\r\n', headers, 'latin1');
    const found = controlIn(body, body[headers] === CR && body[headers + 1] === LF ? headers + 2 : headers, end < 0 ? body.length : end);
    if (found) return found;
  }
  return null;
}

function controlIn(body: Buffer, from: number, to: number): PartHeaderControl | null {
  let lineStart = from;
  let quoted = false;
  let quoteStart = -1;
  for (let i = from; i < to; i++) {
    const byte = body[i]!;
    if (byte === QUOTE) {
      quoted = !quoted;
      if (quoted) quoteStart = i;
    }
    // A CRLF outside a quoted value ends a header line; inside one it is part of the value.
    if (byte === CR && body[i + 1] === LF && !quoted) {
      lineStart = i + 2;
      i++;
      continue;
    }
    if ((byte < 0x20 && byte !== TAB) || byte === 0x7f) {
      // The parameter the byte is in: the text before its opening quote, or since the last `;`.
      const before = quoted ? body.toString('latin1', lineStart, quoteStart) : body.toString('latin1', lineStart, i);
      const parameter = before.slice(before.lastIndexOf(';') + 1);
      return { character: `U+${byte.toString(16).toUpperCase().padStart(4, '0')}`, inFilename: /^\s*filename\*?\s*=/i.test(parameter) };
    }
  }
  return null;
}
