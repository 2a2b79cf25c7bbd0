import * as z from '../platform/zod';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { column } from '../uploads/request';
import { DELIMITERS, ENCODINGS } from './import-format';
import { UploadId } from './route-ids';
import { CONSOLE_ROUTE_TABLE as at } from './route-table';

/** Column names under the API's own rule (trimmed, 1 to 256 characters). */
const Mapping = z.lazySchema(() => z.object({
  phone_columns: z.array(column).check(z.minLength(1), z.maxLength(10)),
  full_name_column: z.nullish(column),
  first_name_column: z.nullish(column),
  last_name_column: z.nullish(column),
}));

/** The in-app upload flow's routes (./web-upload.ts) with their request schemas. */
export const webUploadRoutes = {
  discardUpload: { ...at.discardUpload, request: { params: UploadId } },
  startUpload: { ...at.startUpload, request: { query: z.lazySchema(() => z.object({ filename: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) })), contentTypes: ['text/csv'], forms: { 'text/csv': z.string().check(z.describe('the file as the person chose it')) } } },
  stageUpload: at.stageUpload,
  startStagedUpload: { ...at.startStagedUpload, request: { body: z.lazySchema(() => z.object({ staged_upload_id: z.uuid(), filename: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) })) } },
  mapUpload: { ...at.mapUpload, request: { params: UploadId, body: Mapping } },
  confirmUpload: {
    ...at.confirmUpload,
    request: {
      params: UploadId,
      body: z.lazySchema(() =>
        z.object({
          validation_tier: z.enum(['standard', 'max']),
          skip_mobile_lookup: z._default(z.boolean(), false),
          expected_credits: z.number().check(z.int(), z.gte(0)),
          // The columns the page showed with that price: confirmed only if they are still the validated ones (409 else).
          expected_mapping: z.optional(
            z.object({
              phone_columns: z.array(z.string()).check(z.minLength(1), z.maxLength(10)),
              full_name_column: z.optional(z.nullable(z.string())),
              first_name_column: z.optional(z.nullable(z.string())),
              last_name_column: z.optional(z.nullable(z.string())),
            }),
          ),
        }),
      ),
    },
  },
  rereadUpload: { ...at.rereadUpload, request: { params: UploadId, body: z.lazySchema(() => z.object({ delimiter: z.optional(z.enum(DELIMITERS)), encoding: z.optional(z.enum(ENCODINGS)), header_row: z.optional(z.boolean()) })) } },
  uploadReport: { ...at.uploadReport, request: { params: UploadId } },
} satisfies Record<string, ConsoleRouteSpec>;
