import * as z from '../platform/zod';
import { timestamp } from '../platform/http/common-schemas';
import { IdentityBand, ServiceStatus } from '../classification/schemas';

// An upload as the API answers it and as the upload webhook events carry it. Its own module, apart
// from the route table (routes.ts), so that a step that announces an upload (finalize, fail) does
// not carry the request schemas and, through them, create's planner and the number normalizer
// (docs/performance.md, "Cold imports, tenth step").

const ResultSummary = z.lazySchema(() => z.object({
  format: z.enum(['identity', 'answer_intent']),
  total_rows: z.number().check(z.int()),
  status_counts: z.partialRecord(ServiceStatus, z.number().check(z.int())).check(z.describe('rows by best status: the nine tiers (format identity) or the Answer Intent values (format answer_intent), each present, 0 or more')),
  identity_counts: z.partialRecord(IdentityBand, z.number().check(z.int())).check(z.describe('rows by best identity band (format identity; empty otherwise)')),
  has_answer_intent_column: z.boolean(),
  has_identity_column: z.boolean(),
  simulated: z.boolean().check(z.describe('true when the results came from the simulator provider (development data, not real signals)')),
}));

export const Upload = z.lazySchema(() => z
  .object({
    id: z.string().check(z.uuid()),
    user_id: z.string().check(z.uuid()),
    organization_id: z.nullable(z.string().check(z.uuid())),
    original_filename: z.string(),
    file_size_bytes: z.nullable(z.number().check(z.int())),
    status: z.enum(['pending_mapping', 'validating', 'validation_failed', 'awaiting_confirmation', 'ready_for_processing', 'processing', 'completed', 'failed', 'cancelled']),
    valid_row_count: z.nullable(z.number().check(z.int())),
    valid_number_count: z.nullable(z.number().check(z.int())),
    invalid_row_count: z.nullable(z.number().check(z.int())),
    credits_required: z.nullable(z.number().check(z.int())),
    credits_charged: z.nullable(z.number().check(z.int())),
    credits_refunded: z.nullable(z.number().check(z.int())),
    source: z.nullable(z.enum(['web', 'api', 'api_pool'])),
    api_key_id: z.nullable(z.string()),
    skip_mobile_lookup: z.nullable(z.boolean()),
    validation_tier: z.nullable(z.enum(['standard', 'max'])),
    identity_enabled: z.nullable(z.boolean()),
    result_summary: z.nullable(ResultSummary),
    export_count: z.number().check(z.int()),
    last_exported_at: z.nullable(timestamp),
    processed_available: z.boolean(),
    processed_filtered_available: z.boolean(),
    error_message: z.nullable(z.string()),
    exceeded_daily_limit: z.nullable(z.boolean()),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'Upload' })));
