// Content-Disposition for download links, per RFC 6266 with RFC 8187 (formerly 5987) encoding.
// File names come from customers (multipart filename, filename_override, JSON filename) and may hold
// any Unicode, control characters, quotes or be very long; the header must stay valid ASCII (S3 and
// Node refuse anything else) and still give the browser the customer's name.

/** Most file systems refuse longer names (in UTF-8 bytes); browsers would cut them anyway. */
export const MAX_FILENAME_BYTES = 255;

const FALLBACK_NAME = 'download.csv';

// C0 and C1 controls, DEL, the bidirectional overrides and isolates that can make a name display as
// something it is not, and lone surrogates (not encodable as UTF-8).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\p{Cs}/gu;
/** UNSAFE without the global flag: a test that keeps no position between calls. */
const UNSAFE_ANY = new RegExp(UNSAFE.source, 'u');

/**
 * The first character of `name` a file name may not hold (UNSAFE's), as `U+XXXX`, or null. Create
 * refuses such a name rather than store one that shows as another (`…\u202eVSC.exe` reads as
 * `…exe.CSV`), as key names are refused (admin/key-name.ts).
 */
export function unsafeFilenameCharacter(name: string): string | null {
  const found = UNSAFE_ANY.exec(name);
  return found ? `U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/** The refusal's words for a name holding such a character (`what`: how the name was given). */
export const unsafeFilenameMessage = (what: string, character: string): string =>
  `${what} holds ${character}, a control or bidirectional-formatting character that can make a file name show as another; remove it`;

/** The name the customer should see: unsafe characters removed, path separators replaced, fitted. */
export function downloadFilename(name: string): string {
  const cleaned = name.replace(UNSAFE, '').replace(/[/\\]/g, '_').trim();
  return fitBytes(cleaned || FALLBACK_NAME, MAX_FILENAME_BYTES);
}

/** `attachment; filename="<ASCII fallback>"` plus `filename*=UTF-8''…` when the name is not plain ASCII. */
export function attachmentDisposition(name: string): string {
  const filename = downloadFilename(name);
  const fallback = asciiFallback(filename);
  const header = `attachment; filename="${fallback}"`;
  return fallback === filename ? header : `${header}; filename*=UTF-8''${encodeExtValue(filename)}`;
}

/**
 * For clients that ignore filename*: accents dropped (é → e), any other non-printable-ASCII, the
 * quote, backslash and percent (which some browsers decode) replaced by `_`.
 */
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
}

/** RFC 8187 value-chars: attr-char kept, everything else percent-encoded UTF-8. */
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The last characters kept when a name is cut: room for `_processed_filtered.csv`. */
const TAIL_CHARS = 24;

/**
 * Cuts the name to `max` UTF-8 bytes on code point boundaries: its beginning, `…`, and its last
 * characters (so the extension and the _processed suffix survive).
 */
function fitBytes(name: string, max: number): string {
  if (Buffer.byteLength(name) <= max) return name;
  const chars = Array.from(name);
  const tail = chars.slice(-TAIL_CHARS).join('');
  let head = '';
  let bytes = Buffer.byteLength(tail) + Buffer.byteLength('…');
  for (const ch of chars.slice(0, -TAIL_CHARS)) {
    bytes += Buffer.byteLength(ch);
    if (bytes > max) break;
    head += ch;
  }
  return head + '…' + tail;
}
