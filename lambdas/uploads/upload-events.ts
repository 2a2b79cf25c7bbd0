import * as z from '../platform/zod';
import { timestamp } from '../platform/http/common-schemas';
import { defineEvent } from '../webhooks/events';
import { Upload } from './upload-schema';

// The upload events' payloads (spec, Events), as create-upload.ts and pipeline/announce.ts build
// them and the OpenAPI `webhooks` section shows them.

const count = z.nullable(z.number().check(z.int()));

// Built inside the events' lazy schemas, as they are (it reads Upload's built shape).
const uploadOutcome = () => ({
  id: z.string().check(z.uuid()),
  source: z.builtSchema(Upload).shape.source,
  original_filename: z.string(),
  valid_row_count: count,
  valid_number_count: count,
  invalid_row_count: count,
  organization_id: z.nullable(z.string().check(z.uuid())),
  created_at: timestamp,
});

const Downloads = z.lazySchema(() => z.object({
  processed: z.string().check(z.describe('signed link to the processed file, valid one hour')),
  processed_filtered: z.string().check(z.describe('signed link to the deprecated filtered file, valid one hour')),
}));

export const UPLOAD_CREATED = defineEvent({
  type: 'upload.created',
  summary: 'An upload was created (API and web)',
  description: 'No download links.',
  data: z.lazySchema(() => z.object({
    upload: z.object({
      id: z.string().check(z.uuid()),
      source: z.builtSchema(Upload).shape.source,
      status: z.literal('ready_for_processing'),
      original_filename: z.string(),
      total_rows: count.check(z.describe('everything submitted; on multi-column uploads total_rows minus valid_row_count is not an invalid count')),
      valid_row_count: count,
      valid_number_count: count,
      organization_id: z.nullable(z.string().check(z.uuid())),
      created_at: timestamp,
    }),
  })),
});

export const UPLOAD_COMPLETED = defineEvent({
  type: 'upload.completed',
  summary: 'An upload finished processing',
  description: 'With signed links to the processed files, each valid one hour from the state change; GET the download endpoints for fresh ones.',
  data: z.lazySchema(() => z.object({ upload: z.object({ ...uploadOutcome(), status: z.literal('completed'), downloads: Downloads }) })),
});

export const UPLOAD_FAILED = defineEvent({
  type: 'upload.failed',
  summary: 'An upload failed',
  description: 'Its credits are refunded.',
  data: z.lazySchema(() => z.object({ upload: z.object({ ...uploadOutcome(), status: z.literal('failed'), downloads: z.null() }), error_message: z.nullable(z.string()) })),
});
