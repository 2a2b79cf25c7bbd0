import { isUtf8 } from 'node:buffer';
import type Busboy from 'busboy';
import * as z from '../platform/zod';
import { InvalidInput, TooLarge } from '../platform/domain-errors';
import { describeZodError } from '../platform/http/validation';
import { freeFormObject } from '../platform/http/common-schemas';
import { csvLine } from './csv';
import { setAsideLargestPart, type SetAside } from './multipart-set-aside';
import type { CsvSource } from './original-csv';
import { columnList, MAX_NUMBERS, MAX_PHONE_COLUMNS, type ColumnMapping, type Tier } from './plan';
import { unsafeFilenameCharacter, unsafeFilenameMessage } from './content-disposition';
import { controlInPartHeaders } from './part-header-control';

export const MAX_CSV_BYTES = 100 * 1024 * 1024;

export interface UploadRequest {
  /** The CSV as received, or the staged one a create names (read by create: original-csv.ts). */
  csv: CsvSource;
  filename: string | null;
  mapping: ColumnMapping;
  tier: Tier;
  skipMobileLookup: boolean;
  stagedUploadId?: string;
}

/** The longest file name an upload keeps, however it is given (JSON `filename`, `filename_override`, the file part's). */
const MAX_FILENAME_CHARS = 255;

/** A file name as given in a field: 1 to MAX_FILENAME_CHARS characters, none unsafe to show (content-disposition.ts). */
const filenameField = (field: string) =>
  z.string().check(
    z.minLength(1),
    z.maxLength(MAX_FILENAME_CHARS),
    z.refine((name: string) => unsafeFilenameCharacter(name) === null, { error: (issue) => unsafeFilenameMessage(field, unsafeFilenameCharacter(String(issue.input)) ?? 'a character') }),
  );

/** Refuses a file name that could show as another (content-disposition.ts's unsafe characters); `what`: how it was given. */
export function refuseUnsafeFilename(name: string, what: string): void {
  const character = unsafeFilenameCharacter(name);
  if (character) throw new InvalidInput(unsafeFilenameMessage(what, character));
}

const tierSchema = z.enum(['standard', 'max'], { error: 'validation_tier must be standard or max' });
/** A column name in a mapping, here and in the console's. */
export const column = z.string().check(z.trim(), z.minLength(1), z.maxLength(256));

export const JsonUploadBody = z.lazySchema(() => z
  .strictObject({
    filename: z.optional(filenameField('filename')),
    skip_mobile_lookup: z.optional(z.boolean()),
    validation_tier: z.optional(tierSchema),
    phone_numbers: z.optional(z.array(z.string({ error: 'phone_numbers must be an array of strings' }))),
    contacts: z.optional(z.array(freeFormObject('contacts must be an array of objects'), { error: 'contacts must be an array of objects' })),
    phone_column: z.optional(column),
    phone_columns: z.optional(z.array(column)),
    full_name_column: z.optional(column),
    first_name_column: z.optional(column),
    last_name_column: z.optional(column),
    staged_upload_id: z.optional(z.string().check(z.uuid())),
  })
  .check(z.meta({ id: 'CreateUploadJson' })));

interface RawMapping {
  phone_column?: string;
  phone_columns?: string[];
  full_name_column?: string;
  first_name_column?: string;
  last_name_column?: string;
}

/** Spec rules 2, 3, 5 and the 10-column limit. */
export function resolveMapping(raw: RawMapping): ColumnMapping {
  const list = raw.phone_columns?.map((c) => c.trim()).filter(Boolean);
  if (!raw.phone_column && (!list || list.length === 0)) throw new InvalidInput('phone_column or phone_columns is required');
  if (list && list.length > MAX_PHONE_COLUMNS) throw new InvalidInput(`At most ${MAX_PHONE_COLUMNS} phone columns; got ${list.length}`);
  if (list && new Set(list).size !== list.length) throw new InvalidInput('phone_columns lists a column more than once');
  if (raw.phone_column && list && !list.includes(raw.phone_column)) throw new InvalidInput(`phone_column '${raw.phone_column}' is not among phone_columns`);
  if (Boolean(raw.first_name_column) !== Boolean(raw.last_name_column)) throw new InvalidInput('first_name_column and last_name_column must be given together');
  if (raw.full_name_column && raw.first_name_column) throw new InvalidInput('Use full_name_column, or first_name_column with last_name_column, not both');
  const phoneColumns = list && list.length ? list : [raw.phone_column!];
  // A column read as a phone and as a name is a mistake in the mapping: identity would compare each number with itself.
  for (const [field, name] of [['full_name_column', raw.full_name_column], ['first_name_column', raw.first_name_column], ['last_name_column', raw.last_name_column]] as const) {
    if (name && phoneColumns.includes(name)) throw new InvalidInput(`${field} '${name}' is also a phone column; map a column as a phone or as a name, not both`);
  }
  return {
    phoneColumns,
    fullNameColumn: raw.full_name_column,
    firstNameColumn: raw.first_name_column,
    lastNameColumn: raw.last_name_column,
  };
}

/** JSON mode: the list becomes a CSV original (header from the keys, in first-seen order). */
export function parseJsonUpload(body: z.infer<typeof JsonUploadBody>): UploadRequest {
  const hasNumbers = body.phone_numbers !== undefined;
  const hasContacts = body.contacts !== undefined;
  const common = { filename: body.filename ?? null, tier: body.validation_tier ?? 'standard', skipMobileLookup: body.skip_mobile_lookup ?? false } as const;
  if (body.staged_upload_id) {
    if (hasNumbers || hasContacts) throw new InvalidInput('staged_upload_id cannot be combined with phone_numbers or contacts');
    return { ...common, csv: Buffer.alloc(0), mapping: resolveMapping(body), stagedUploadId: body.staged_upload_id };
  }
  if (hasNumbers === hasContacts) throw new InvalidInput('Send exactly one of phone_numbers or contacts');
  const count = (body.phone_numbers ?? body.contacts)!.length;
  if (count > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} entries per upload; got ${count}`);
  if (hasNumbers) {
    if (body.full_name_column || body.first_name_column || body.last_name_column) throw new InvalidInput('Name columns require contacts, not phone_numbers');
    if (body.phone_column || body.phone_columns) throw new InvalidInput('phone_column and phone_columns apply to contacts, not phone_numbers');
    const lines = ['phone', ...body.phone_numbers!.map((n) => csvLine([n]))];
    return { ...common, csv: Buffer.from(lines.join('\n') + '\n'), mapping: { phoneColumns: ['phone'] } };
  }
  if (!body.phone_column) throw new InvalidInput('phone_column is required with contacts');
  const mapping = resolveMapping(body);
  const mapped = [...mapping.phoneColumns, mapping.fullNameColumn, mapping.firstNameColumn, mapping.lastNameColumn].filter((c): c is string => Boolean(c));
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const contact of body.contacts!) {
    for (const key of Object.keys(contact)) {
      if (seen.has(key)) continue;
      seen.add(key);
      columns.push(key);
    }
  }
  // Mapped phone keys that no contact has at all name nothing the contacts hold (a typo such as
  // 'phone' for 'Phone'), as a CSV's missing column does: 400 naming the keys, not a 422 saying 0
  // numbers were valid. One mapped key some contacts have is enough: a serializer that leaves out
  // null values drops a key from every contact whose value is null (a column nobody filled).
  if (body.contacts!.length > 0 && !mapping.phoneColumns.some((key) => seen.has(key))) {
    const named = mapping.phoneColumns.length === 1 ? `phone_column '${mapping.phoneColumns[0]}' is not` : `None of phone_columns ${columnList(mapping.phoneColumns)} is`;
    throw new InvalidInput(`${named} a key of any contact; ${columns.length ? `their keys: ${columnList(columns)}` : 'the contacts have no keys'}`);
  }
  // A name mapped and held by no contact would buy an identity run with no name to compare (a
  // typo such as 'name' for 'Name'): 400 naming the keys, as for the phone. Of a first and last
  // pair one is enough (a contact may have only a last name).
  if (body.contacts!.length > 0) {
    const missingName = mapping.fullNameColumn
      ? !seen.has(mapping.fullNameColumn) && `full_name_column '${mapping.fullNameColumn}' is not`
      : mapping.firstNameColumn && !seen.has(mapping.firstNameColumn) && !seen.has(mapping.lastNameColumn!) && `Neither first_name_column '${mapping.firstNameColumn}' nor last_name_column '${mapping.lastNameColumn}' is`;
    if (missingName) throw new InvalidInput(`${missingName} a key of any contact; their keys: ${columnList(columns)}`);
  }
  // Any other mapped key no contact has is a column of blank cells, not a missing header.
  for (const key of mapped) if (!seen.has(key)) columns.push(key);
  const textual = new Set(mapped);
  const lines = [csvLine(columns)];
  body.contacts!.forEach((contact, index) => {
    lines.push(
      csvLine(
        columns.map((key) => {
          const value = Object.hasOwn(contact, key) ? contact[key] : undefined;
          if (value === null || value === undefined) return '';
          // A phone or a name is one value; other keys are only echoed into the processed file, as JSON text.
          if (textual.has(key) && (typeof value === 'object' || typeof value === 'boolean')) {
            throw new InvalidInput(`contacts[${index}].${key} must be a string or a number, not ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : 'a boolean'}`);
          }
          return typeof value === 'object' ? JSON.stringify(value) : String(value);
        }),
      ),
    );
  });
  return { ...common, csv: Buffer.from(lines.join('\n') + '\n'), mapping };
}

/**
 * A create call naming a staged JSON document: the document is a JSON create body (phone_numbers
 * or contacts, with their mapping); the call may add filename, validation_tier,
 * skip_mobile_lookup or mapping fields, and a field given in both must agree.
 */
export function parseStagedJsonUpload(call: z.infer<typeof JsonUploadBody>, document: Buffer): UploadRequest {
  let raw: unknown;
  if (!isUtf8(document)) throw new InvalidInput('The staged file is not valid JSON: it is not valid UTF-8');
  try {
    raw = JSON.parse(document.toString('utf8'));
  } catch (error) {
    throw new InvalidInput(`The staged file is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = JsonUploadBody.safeParse(raw);
  if (!parsed.success) throw new InvalidInput(`The staged JSON file is not an upload body: ${describeZodError(parsed.error)}`);
  if (parsed.data.staged_upload_id) throw new InvalidInput('The staged JSON file cannot itself name a staged_upload_id');
  const { staged_upload_id: stagedUploadId, ...added } = call;
  const staged = parsed.data as Record<string, unknown>;
  for (const [field, value] of Object.entries(added)) {
    if (value !== undefined && staged[field] !== undefined && JSON.stringify(staged[field]) !== JSON.stringify(value)) {
      throw new InvalidInput(`${field} differs between the create call and the staged JSON file`);
    }
  }
  return { ...parseJsonUpload({ ...parsed.data, ...added }), stagedUploadId };
}

export const MultipartFields = z.lazySchema(() => z.strictObject({
  phone_column: z.optional(column),
  phone_columns: z.optional(z.string()),
  skip_mobile_lookup: z.optional(z.enum(['true', 'false', '1', '0'], { error: 'skip_mobile_lookup must be true or false' })),
  validation_tier: z.optional(tierSchema),
  filename_override: z.optional(filenameField('filename_override')),
  full_name_column: z.optional(column),
  first_name_column: z.optional(column),
  last_name_column: z.optional(column),
}));

/** multipart/form-data: the `file` part (CSV, ≤ 100 MB) and the mapping fields. */
export async function parseMultipartUpload(body: Buffer, contentType: string): Promise<UploadRequest> {
  const { fields, file, filename } = await readMultipart(body, contentType);
  if (!file) throw new InvalidInput("The multipart body has no 'file' part");
  const parsed = MultipartFields.safeParse(fields);
  if (!parsed.success) throw new InvalidInput(`Invalid form fields: ${describeZodError(parsed.error)}`);
  const f = parsed.data;
  if (!f.filename_override && filename && filename.length > MAX_FILENAME_CHARS) {
    throw new InvalidInput(`The file part's filename is ${filename.length} characters long; at most ${MAX_FILENAME_CHARS} are kept (send a shorter one, or filename_override)`);
  }
  if (!f.filename_override && filename) refuseUnsafeFilename(filename, "The file part's filename");
  const mapping = resolveMapping({
    phone_column: f.phone_column,
    phone_columns: f.phone_columns?.split(','),
    full_name_column: f.full_name_column,
    first_name_column: f.first_name_column,
    last_name_column: f.last_name_column,
  });
  return {
    csv: file,
    filename: f.filename_override ?? filename,
    mapping,
    tier: f.validation_tier ?? 'standard',
    skipMobileLookup: f.skip_mobile_lookup === 'true' || f.skip_mobile_lookup === '1',
  };
}

export interface MultipartContent {
  fields: Record<string, string>;
  file: Buffer | null;
  filename: string | null;
}

/** The part worth setting aside (multipart-set-aside.ts): smaller ones cost busboy little. */
const SET_ASIDE_BYTES = 64 * 1024;

/**
 * The body read by busboy, with its largest part's content set aside when it is laid out plainly
 * (multipart-set-aside.ts); `setAsideFrom`: the smallest part set aside (tests set 0 to read every
 * body both ways, Infinity to have busboy read it whole).
 */
export async function readMultipart(body: Buffer, contentType: string, setAsideFrom = SET_ASIDE_BYTES): Promise<MultipartContent> {
  // Without a part set aside there is no marker to meet.
  const whole = () => busboyRead(body, contentType, null) as Promise<MultipartContent>;
  const aside = Number.isFinite(setAsideFrom) ? setAsideLargestPart(body, contentType, setAsideFrom) : null;
  if (!aside) return whole();
  const read = await busboyRead(aside.body, contentType, aside);
  // The part set aside was a field (busboy cuts a field at 64 KiB, which the marker is not): read whole.
  return read === MARKER_IN_FIELD ? whole() : read;
}

const MARKER_IN_FIELD = Symbol('marker in a field');

async function busboyRead(body: Buffer, contentType: string, aside: SetAside | null): Promise<MultipartContent | typeof MARKER_IN_FIELD> {
  // Loaded here, not at the top: busboy is CommonJS, which esbuild keeps in every bundle that
  // imports this module (the route schemas, MAX_CSV_BYTES), used or not.
  const { default: busboy } = await import('busboy');
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      // defParamCharset: a `filename="…"` in raw UTF-8, as RFC 7578 (4.2) has browsers and curl send
      // it, is read as UTF-8 (busboy's default, latin1, turned 'Überblick.csv' into mojibake);
      // `filename*=UTF-8''…` (RFC 5987) is decoded by the charset it names and wins over filename.
      // preservePath: the name as sent, folders and all (`original_filename` is the submitted name;
      // busboy's default keeps what follows the last / or \). Downloads make it a safe file name
      // (content-disposition.ts), as they do a JSON upload's `filename`.
      parser = busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8', preservePath: true, limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024 } });
    } catch (error) {
      reject(new InvalidInput(`Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    // The customer names the fields: a field named __proto__ or constructor is a field like any other.
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    let file: Buffer | null = null;
    let filename: string | null = null;
    let tooLarge = false;
    let failed = false;
    // Every stream busboy hands out can fail (a part cut off before its closing boundary emits
    // 'Unexpected end of form' on the file stream); an 'error' nobody listens to would take the
    // whole process down, so each one ends this request with a 400 instead.
    const malformed = (error: Error) => {
      if (failed) return;
      failed = true;
      const control = error.message === 'Malformed part header' ? controlInPartHeaders(body, contentType) : null;
      if (control?.inFilename) reject(new InvalidInput(unsafeFilenameMessage("The file part's filename", control.character)));
      else if (control) reject(new InvalidInput(`Malformed multipart body: a part's header holds ${control.character}, a control character no header may hold; remove it`));
      else reject(new InvalidInput(`Malformed multipart body: ${error.message}; send each part complete, followed by the closing boundary`));
    };
    // A part given twice, or beyond busboy's limits, would otherwise be dropped without a word:
    // which phone column or file was meant is the caller's to say.
    let ambiguous: string | null = null;
    let markerInField = false;
    parser.on('field', (name, value) => {
      if (aside && value === aside.marker) markerInField = true;
      if (Object.hasOwn(fields, name)) ambiguous ??= `The form field '${name}' is given more than once; send each field once`;
      fields[name] = value;
    });
    parser.on('filesLimit', () => {
      ambiguous ??= "The form has more than one file part; send the CSV as the one part named 'file'";
    });
    parser.on('fieldsLimit', () => {
      ambiguous ??= 'The form has more than 20 fields';
    });
    parser.on('file', (name, stream, info) => {
      stream.on('error', malformed);
      if (name !== 'file') {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      filename = info.filename || null;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        file = joinSlices(chunks);
        if (aside && file.equals(Buffer.from(aside.marker, 'latin1'))) {
          file = aside.content;
          // busboy's own limit: reached when the part holds fileSize bytes or more.
          if (file.length >= MAX_CSV_BYTES) tooLarge = true;
        }
      });
    });
    parser.on('error', malformed);
    parser.on('close', () => {
      if (failed) return;
      if (markerInField) return resolve(MARKER_IN_FIELD);
      if (tooLarge) reject(new TooLarge(`The CSV file exceeds ${MAX_CSV_BYTES} bytes (100 MB)`));
      else if (ambiguous) reject(new InvalidInput(ambiguous));
      else resolve({ fields, file, filename });
    });
    parser.end(body);
  });
}

/**
 * busboy hands out slices of the body: pieces that lie one after another in the same memory are
 * the file in place, without a copy (a 100 MB part would otherwise be held twice). Else joined.
 */
export function joinSlices(chunks: Buffer[]): Buffer {
  if (chunks.length === 0) return Buffer.alloc(0);
  const first = chunks[0]!;
  let end = first.byteOffset + first.length;
  for (let i = 1; i < chunks.length; i++) {
    const chunk = chunks[i]!;
    if (chunk.buffer !== first.buffer || chunk.byteOffset !== end) return Buffer.concat(chunks);
    end += chunk.length;
  }
  return Buffer.from(first.buffer, first.byteOffset, end - first.byteOffset);
}
