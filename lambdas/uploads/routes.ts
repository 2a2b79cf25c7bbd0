import * as z from '../platform/zod';
import { authErrors, byIdParams, StringError, pageLimit, rateLimitErrors } from '../platform/http/common-schemas';
import { ServiceStatus } from '../classification/schemas';
import type { RouteSpec } from '../platform/http/route-spec';
import { JsonUploadBody, MultipartFields } from './request';
import { Upload } from './upload-schema';

/** A single-valued query parameter's refusal: given more than once, or not one of its values. */
const onceOrOneOf = (name: string, input: unknown, values: string): string =>
  typeof input === 'string' && input.includes(',') ? `${name} is given more than once; give it once, as ${values}` : `${name} must be ${values}`;

export const DEFAULT_PAGE_SIZE = 20;

/** The processed download's query, for the API's route and the console's (one set of rules). */
export const ProcessedDownloadQuery = z.lazySchema(() => z.object({
  statuses: z.optional(z.string().check(z.maxLength(2000))).check(
    z.meta({
      description: 'Comma-separated statuses from the vocabulary of result_summary.format: the nine tiers (identity) or the Answer Intent values (answer_intent); a value of the other vocabulary is a 400',
      'x-comma-separated-enum': ServiceStatus.options,
    }),
  ),
  // A parameter given twice reaches the handler as its values joined by a comma (API Gateway's
  // rule), which the messages name, so that 'sort=a&sort=a' is not answered as an unknown value.
  include_identity: z.optional(z.enum(['true', 'false'], { error: (issue) => onceOrOneOf('include_identity', issue.input, 'true or false') })),
  sort: z.optional(z.enum(['best_status', 'original'], { error: (issue) => onceOrOneOf('sort', issue.input, 'best_status or original') })).check(z.describe('best_status ranks each contact by its best number')),
  neutralize_formulas: z.optional(z
    .enum(['true', 'false'], { error: (issue) => onceOrOneOf('neutralize_formulas', issue.input, 'true or false') })).check(z.describe("true: the customer's cells that start with = + - @, tab or CR are written as OWASP recommends against CSV injection: prefixed with a single quote and quoted (so +12125550143 becomes \"'+12125550143\"). Default false: the customer's cells are kept exactly; the service's own cells are always safe")),
}));

export const DownloadLink = z.lazySchema(() => z
  .object({ url: z.string().check(z.describe('signed GET link')), expires_at: z.number().check(z.int(), z.describe('Unix seconds; the link answers 403 after it')) }).check(z.meta({ id: 'DownloadLink' })));

/**
 * The multipart form of POST /api/v1/uploads, for the OpenAPI document: the fields the handler
 * validates with `MultipartFields`, described, plus the file part.
 */
const MultipartUploadForm = z.lazySchema(() => {
  const f = z.builtSchema(MultipartFields).shape;
  return z.strictObject({
    file: z.string().check(z.meta({ format: 'binary', contentMediaType: 'text/csv', description: 'The CSV file, with a header row. A request passes API Gateway (10 MB) and a Lambda event (6 MB, this body base64 encoded), so a multipart body over about 4.7 MB gets a 413: stage it with POST /api/v1/uploads/staging (up to 100 MB)' })),
    phone_column: f.phone_column.check(z.describe('Name of the phone column (one of phone_column / phone_columns is required)')),
    phone_columns: f.phone_columns.check(z.describe('Comma-separated names of up to 10 phone columns; when phone_column is given too it must be among them')),
    skip_mobile_lookup: f.skip_mobile_lookup.check(z.describe('Skip the paid line-type lookup (true or false, also 1 or 0); default false')),
    validation_tier: f.validation_tier.check(z.describe('standard (1 credit per number) or max (ceil(n × 1.5)); default standard')),
    filename_override: f.filename_override.check(z.describe('Used as original_filename instead of the file part’s own name')),
    full_name_column: f.full_name_column.check(z.describe('Column holding the full name; enables Identity (use this OR first_name_column with last_name_column)')),
    first_name_column: f.first_name_column.check(z.describe('Column holding the first name; with last_name_column enables Identity')),
    last_name_column: f.last_name_column.check(z.describe('Column holding the last name; with first_name_column enables Identity')),
  }).check(z.meta({ id: 'CreateUploadMultipart', description: 'multipart/form-data fields of POST /api/v1/uploads' }));
});

const MinContactsError = z.lazySchema(() => z
  .object({ detail: z.object({ error: z.literal('min_contacts_required'), min: z.number().check(z.int()), got: z.number().check(z.int()), message: z.string() }) })
  .check(z.meta({ id: 'MinContactsError' })));

const IdParams = byIdParams('id', 'Upload not found', 'id of an upload of the key’s organization');
const notFound = { 404: { description: 'Unknown or another organization’s upload', schema: StringError } };

function download(name: string, operationId: string, summary: string, query?: z.ZodMiniType) {
  return {
    method: 'GET',
    path: `/api/v1/uploads/{id}/download/${name}`,
    fn: 'uploads',
    operationId,
    summary,
    tags: ['uploads'],
    scope: 'uploads:read',
    request: { params: IdParams, ...(query ? { query } : {}) },
    responses: {
      200: { description: 'A link valid for one hour', schema: DownloadLink },
      400: { description: 'Unrecognized status or other invalid parameter', schema: StringError },
      409: { description: 'The file is not available yet (processing not completed)', schema: StringError },
      410: { description: 'The file is no longer stored: removed by the retention period, or missing from storage (logged for the operator); a new link will not help', schema: StringError },
      ...notFound,
      ...authErrors,
    },
  } as const satisfies RouteSpec;
}

export const uploadsRoutes = {
  create: {
    method: 'POST',
    path: '/api/v1/uploads',
    fn: 'uploads',
    operationId: 'createUpload',
    summary: 'Create an upload from a CSV (multipart), a JSON list, or a staged object',
    tags: ['uploads'],
    scope: 'uploads:write',
    rateLimited: true,
    subscription: true,
    request: { body: JsonUploadBody, contentTypes: ['multipart/form-data', 'application/json'], forms: { 'multipart/form-data': MultipartUploadForm } },
    responses: {
      200: { description: 'Upload created in ready_for_processing; credits charged', schema: Upload },
      400: { description: 'Malformed input or violated constraint', schema: StringError },
      402: { description: 'Insufficient credits', schema: StringError },
      403: { description: 'No active subscription', schema: StringError },
      409: { description: 'staged_upload_id already used: a staged file makes one upload; nothing charged', schema: StringError },
      413: { description: 'CSV over 100 MB, or over 250,000 entries', schema: StringError },
      415: { description: 'Content-Type other than multipart/form-data or application/json', schema: StringError },
      422: { description: 'Fewer than 100 valid numbers (min_contacts_required)', schema: MinContactsError },
      ...authErrors,
      ...rateLimitErrors,
    },
  },
  stage: {
    method: 'POST',
    path: '/api/v1/uploads/staging',
    fn: 'uploads',
    operationId: 'stageUpload',
    summary: 'Get a presigned POST for a large CSV or JSON body (up to 100 MB); then create the upload with staged_upload_id',
    tags: ['uploads'],
    scope: 'uploads:write',
    rateLimited: true,
    subscription: true,
    request: {
      query: z.lazySchema(() => z.object({
        format: z._default(z.enum(['csv', 'json'], { error: 'format must be csv or json' }), 'csv').check(z.describe('csv: the file is a CSV (the create call gives the mapping); json: the file is a JSON create body (phone_numbers or contacts)')),
      })),
    },
    responses: {
      200: {
        description: 'Where and how to POST the file',
        schema: z.lazySchema(() => z.object({ staged_upload_id: z.string().check(z.uuid()), format: z.enum(['csv', 'json']), url: z.string(), fields: z.record(z.string(), z.string()), expires_at: z.number().check(z.int()), max_bytes: z.number().check(z.int()) })),
      },
      400: { description: 'Invalid query', schema: StringError },
      ...authErrors,
      ...rateLimitErrors,
    },
  },
  list: {
    method: 'GET',
    path: '/api/v1/uploads',
    fn: 'uploads',
    operationId: 'listUploads',
    summary: 'List uploads, newest first',
    tags: ['uploads'],
    scope: 'uploads:read',
    request: { query: z.lazySchema(() => z.object({ limit: pageLimit(100, DEFAULT_PAGE_SIZE), cursor: z.optional(z.string().check(z.maxLength(2048))) })) },
    responses: { 200: { description: 'A page', schema: z.lazySchema(() => z.object({ data: z.array(Upload), next_cursor: z.nullable(z.string()) })) }, 400: { description: 'Invalid query', schema: StringError }, ...authErrors },
  },
  get: {
    method: 'GET',
    path: '/api/v1/uploads/{id}',
    fn: 'uploads',
    operationId: 'getUpload',
    summary: 'One upload',
    tags: ['uploads'],
    scope: 'uploads:read',
    request: { params: IdParams },
    responses: { 200: { description: 'Upload', schema: Upload }, ...notFound, ...authErrors },
  },
  remove: {
    method: 'DELETE',
    path: '/api/v1/uploads/{id}',
    fn: 'uploads',
    operationId: 'deleteUpload',
    summary: 'Removed: always 410 Gone, changes nothing',
    tags: ['uploads'],
    rateLimited: true,
    // Any value, UUID or not: the answer is always 410 (spec), so the id is not validated.
    request: { params: z.lazySchema(() => z.object({ id: z.string().check(z.describe('any upload id; the answer is always 410')) })) },
    responses: { 410: { description: 'Gone', schema: StringError }, ...authErrors },
  },
  downloadOriginal: download('original', 'downloadOriginal', 'Signed link to the original file'),
  downloadProcessed: download(
    'processed',
    'downloadProcessed',
    'Signed link to the processed file, or to a slice of it',
    ProcessedDownloadQuery,
  ),
  downloadProcessedFiltered: download('processed-filtered', 'downloadProcessedFiltered', 'Deprecated: the fixed reachable slice'),
} satisfies Record<string, RouteSpec>;
