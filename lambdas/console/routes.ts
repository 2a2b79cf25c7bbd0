import * as z from '../platform/zod';
import { byIdParams, ErrorEnvelope } from '../platform/http/common-schemas';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { DeliveryParams, webhooksRoutes } from '../webhooks/routes';
import { spamRoutes } from '../spam/routes';
import { ProcessedDownloadQuery } from '../uploads/routes';
import { column } from '../uploads/request';
import { DELIMITERS, ENCODINGS } from './import-format';

// The console's API (/console/api/*), as route specs on the same HTTP stack as the public API:
// one validation layer, one error envelope, one logger and clock. Authority is the signed-in
// person (a verified OpenID Connect access token: `auth: 'console'`), never an API key; the
// console's own OpenAPI document is built from this list (/console/api/openapi.json).

const common = { fn: 'console' as const, auth: 'console' as const, tags: ['console'] };
const errors = {
  400: { description: 'Invalid input', schema: ErrorEnvelope },
  401: { description: 'Not signed in', schema: ErrorEnvelope },
  403: { description: 'Not a member of an organization, or an owner-only action', schema: ErrorEnvelope },
};
const answer = (description: string) => ({ 200: { description }, ...errors });
const withMissing = (description: string, missing: string) => ({ ...answer(description), 404: { description: missing, schema: ErrorEnvelope } });

const KeyId = byIdParams('id', 'API key not found', 'id of an API key of the organization');
const MemberId = byIdParams('userId', 'Member not found', 'user id of a member of the organization');
const WebhookId = byIdParams('id', 'Webhook endpoint not found', 'id of a webhook endpoint of the organization');
const SpamId = byIdParams('id', 'Monitored number not found', 'id of a monitored number of the organization');
const UploadId = byIdParams('id', 'Upload not found', 'id of an upload or a draft of the organization');
const DownloadParams = z.object({
  id: UploadId.shape.id,
  kind: z.enum(['original', 'processed'], { error: 'Unknown download' }),
});

/** Column names under the API's own rule (trimmed, 1 to 256 characters). */
const Mapping = z.object({
  phone_columns: z.array(column).check(z.minLength(1), z.maxLength(10)),
  full_name_column: z.nullish(column),
  first_name_column: z.nullish(column),
  last_name_column: z.nullish(column),
});

export const consoleRoutes = {
  openapi: { ...common, method: 'GET', path: '/console/api/openapi.json', operationId: 'consoleOpenApi', summary: 'This document: the console API in OpenAPI 3.1', responses: answer('The document') },
  me: { ...common, method: 'GET', path: '/console/api/me', operationId: 'consoleMe', summary: 'The signed-in person, their organization and role', responses: answer('Who is signed in') },

  listKeys: { ...common, method: 'GET', path: '/console/api/keys', operationId: 'consoleListKeys', summary: 'API keys of the organization (owners)', responses: answer('Keys, newest first') },
  mintKey: {
    ...common,
    method: 'POST',
    path: '/console/api/keys',
    operationId: 'consoleMintKey',
    summary: 'Mint an API key (owners); the key is shown only here',
    // Unknown fields are refused (400), not dropped; name is trimmed, and its rules are normalizeKeyName's (lambdas/admin/key-name.ts).
    request: { body: z.strictObject({ expires_at: z.nullish(z.iso.datetime({ offset: true })), name: z.nullish(z.string().check(z.maxLength(1000))) }) },
    responses: answer('The new key'),
  },
  revokeKey: { ...common, method: 'DELETE', path: '/console/api/keys/{id}', operationId: 'consoleRevokeKey', summary: 'Revoke an API key (owners)', request: { params: KeyId }, responses: withMissing('Revoked', 'No such key in the organization') },
  listMembers: { ...common, method: 'GET', path: '/console/api/members', operationId: 'consoleListMembers', summary: 'Members of the organization (owners)', responses: answer('Members') },
  inviteMember: {
    ...common,
    method: 'POST',
    path: '/console/api/members',
    operationId: 'consoleInviteMember',
    summary: 'Invite a person by email as a member (owners): in AWS Cognito emails a temporary password; locally the password is answered (and logged) for the owner to pass on',
    request: { body: z.strictObject({ email: z.string().check(z.maxLength(1000)) }) },
    responses: { ...answer('The new member and how they sign in'), 409: { description: 'Already a member, or being invited right now', schema: ErrorEnvelope } },
  },
  removeMember: { ...common, method: 'DELETE', path: '/console/api/members/{userId}', operationId: 'consoleRemoveMember', summary: 'Remove a member and revoke their keys (owners)', request: { params: MemberId }, responses: withMissing('Removed', 'Not a member') },

  listWebhooks: { ...common, method: 'GET', path: '/console/api/webhooks', operationId: 'consoleListWebhooks', summary: 'Webhook endpoints and the event types (owners)', responses: answer('Endpoints') },
  createWebhook: { ...common, method: 'POST', path: '/console/api/webhooks', operationId: 'consoleCreateWebhook', summary: 'Register an endpoint (owners): the API’s own rules and ping', request: { body: webhooksRoutes.create.request.body }, responses: { ...answer('The endpoint and its secret, shown once'), 409: { description: 'The organization already has an endpoint for this URL', schema: ErrorEnvelope } } },
  updateWebhook: { ...common, method: 'POST', path: '/console/api/webhooks/{id}', operationId: 'consoleUpdateWebhook', summary: 'Change an endpoint (owners): a changed url is pinged first', request: { params: WebhookId, body: webhooksRoutes.update.request.body }, responses: { ...withMissing('The endpoint', 'No such endpoint'), 409: { description: 'Another endpoint of the organization has this URL', schema: ErrorEnvelope } } },
  deleteWebhook: { ...common, method: 'DELETE', path: '/console/api/webhooks/{id}', operationId: 'consoleDeleteWebhook', summary: 'Delete an endpoint (owners)', request: { params: WebhookId }, responses: withMissing('Deleted', 'No such endpoint') },
  redeliverWebhook: {
    ...common,
    method: 'POST',
    path: '/console/api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
    operationId: 'consoleRedeliverWebhook',
    summary: 'Send an ended delivery again (owners): one more signed attempt, same event id; a double click reopens it once',
    request: { params: DeliveryParams },
    responses: { ...withMissing('The delivery, pending again', 'No such endpoint or delivery'), 409: { description: 'The delivery succeeded, is still being retried, or the endpoint is disabled', schema: ErrorEnvelope } },
  },
  webhookDeliveries: {
    ...common,
    method: 'GET',
    path: '/console/api/webhooks/{id}/deliveries',
    operationId: 'consoleWebhookDeliveries',
    summary: 'Deliveries of an endpoint, newest first (owners)',
    request: { params: WebhookId, query: z.object({ cursor: z.optional(z.string().check(z.maxLength(4096))) }) },
    responses: withMissing('A page of deliveries', 'No such endpoint'),
  },

  listSpam: { ...common, method: 'GET', path: '/console/api/spam', operationId: 'consoleListSpam', summary: 'Monitored numbers', responses: answer('Numbers') },
  addSpam: { ...common, method: 'POST', path: '/console/api/spam', operationId: 'consoleAddSpam', summary: 'Monitor a number; starts verification', request: { body: z.object({ phone_number: spamRoutes.add.request.body.shape.phone_number, verification_method: z._default(z.enum(['sms', 'call']), 'sms') }) }, responses: answer('The number, pending verification') },
  deleteSpam: { ...common, method: 'DELETE', path: '/console/api/spam/{id}', operationId: 'consoleDeleteSpam', summary: 'Stop monitoring a number', request: { params: SpamId }, responses: withMissing('Deleted', 'No such number') },
  verifySpam: { ...common, method: 'POST', path: '/console/api/spam/{id}/verify', operationId: 'consoleVerifySpam', summary: 'Submit the verification code', request: { params: SpamId, body: spamRoutes.verify.request.body }, responses: withMissing('The number', 'No such number') },
  resendSpam: { ...common, method: 'POST', path: '/console/api/spam/{id}/resend', operationId: 'consoleResendSpam', summary: 'Send a new verification code, by `method` or else the way the last code went (the way the number was added)', request: { params: SpamId, body: z.object({ method: z.optional(z.enum(['sms', 'call'])) }) }, responses: withMissing('Sent', 'No such number') },
  spamHistory: { ...common, method: 'GET', path: '/console/api/spam/{id}/history', operationId: 'consoleSpamHistory', summary: 'Test history of a number', request: { params: SpamId }, responses: withMissing('History', 'No such number') },
  spamScreenshot: {
    ...common,
    method: 'GET',
    path: '/console/api/spam/{id}/screenshot',
    operationId: 'consoleSpamScreenshot',
    summary: 'The latest call-screen image as a data: URL (the page’s CSP allows data: images only)',
    request: { params: SpamId, query: spamRoutes.screenshot.request.query },
    responses: withMissing('The image', 'No such number or image'),
  },

  credits: { ...common, method: 'GET', path: '/console/api/credits', operationId: 'consoleCredits', summary: 'Balance and the newest ledger entries', responses: answer('Balance and ledger') },

  listUploads: {
    ...common,
    method: 'GET',
    path: '/console/api/uploads',
    operationId: 'consoleListUploads',
    summary: 'Drafts and uploads of the organization; ?q= searches file names, ?status= filters uploads',
    request: {
      query: z.object({
        cursor: z.optional(z.string().check(z.maxLength(4096))),
        q: z.optional(z.string().check(z.maxLength(255))),
        status: z.optional(z.enum(['ready_for_processing', 'processing', 'completed', 'failed', 'cancelled'])),
      }),
    },
    responses: answer('Drafts and a page of uploads (filtered: up to 99, from at most 1,000 read)'),
  },
  discardUpload: {
    ...common,
    method: 'DELETE',
    path: '/console/api/uploads/{id}',
    operationId: 'consoleDiscardUpload',
    summary: 'Discard a draft not yet confirmed (nothing was charged)',
    request: { params: UploadId },
    responses: { ...withMissing('The draft was discarded', 'No such draft'), 409: { description: 'Validating, confirming or confirmed', schema: ErrorEnvelope } },
  },
  startUpload: {
    ...common,
    method: 'POST',
    path: '/console/api/uploads',
    operationId: 'consoleStartUpload',
    summary: 'Start a draft from a CSV body (?filename=)',
    request: { query: z.object({ filename: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) }), contentTypes: ['text/csv'], forms: { 'text/csv': z.string().check(z.describe('the file as the person chose it')) } },
    responses: answer('The draft'),
  },
  stageUpload: { ...common, subscription: true, method: 'POST', path: '/console/api/uploads/staging', operationId: 'consoleStageUpload', summary: 'A presigned POST for a file too large for the API', responses: answer('Where to post the file') },
  startStagedUpload: {
    ...common,
    method: 'POST',
    path: '/console/api/uploads/staged',
    operationId: 'consoleStartStagedUpload',
    summary: 'Start a draft from a staged file',
    request: { body: z.object({ staged_upload_id: z.uuid(), filename: z.optional(z.string().check(z.minLength(1), z.maxLength(255))) }) },
    responses: answer('The draft'),
  },
  getUpload: { ...common, method: 'GET', path: '/console/api/uploads/{id}', operationId: 'consoleGetUpload', summary: 'An upload, or a draft', request: { params: UploadId }, responses: withMissing('The upload or the draft', 'No such upload or draft') },
  mapUpload: { ...common, method: 'POST', path: '/console/api/uploads/{id}/mapping', operationId: 'consoleMapUpload', summary: 'Map a draft’s columns; validates and prices it', request: { params: UploadId, body: Mapping }, responses: withMissing('The draft', 'No such draft') },
  confirmUpload: {
    ...common,
    subscription: true,
    method: 'POST',
    path: '/console/api/uploads/{id}/confirm',
    operationId: 'consoleConfirmUpload',
    summary: 'Charge the price shown and start processing (409 when the price changed)',
    request: { params: UploadId, body: z.object({ validation_tier: z.enum(['standard', 'max']), skip_mobile_lookup: z._default(z.boolean(), false), expected_credits: z.number().check(z.int(), z.gte(0)) }) },
    responses: { ...withMissing('The upload', 'No such draft'), 402: { description: 'Not enough credits', schema: ErrorEnvelope }, 409: { description: 'The price changed, or the draft is not ready', schema: ErrorEnvelope } },
  },
  rereadUpload: {
    ...common,
    method: 'POST',
    path: '/console/api/uploads/{id}/format',
    operationId: 'consoleRereadUpload',
    summary: 'Read a draft’s file again with another delimiter, encoding or header choice (each one left out is detected)',
    request: { params: UploadId, body: z.object({ delimiter: z.optional(z.enum(DELIMITERS)), encoding: z.optional(z.enum(ENCODINGS)), header_row: z.optional(z.boolean()) }) },
    responses: { ...withMissing('The draft, back to pending_mapping', 'No such draft'), 409: { description: 'The draft is validating or confirmed', schema: ErrorEnvelope } },
  },
  uploadReport: { ...common, method: 'GET', path: '/console/api/uploads/{id}/report', operationId: 'consoleUploadReport', summary: 'A link to the draft’s validation report', request: { params: UploadId }, responses: withMissing('The link', 'No such draft') },
  download: {
    ...common,
    method: 'GET',
    path: '/console/api/uploads/{id}/download/{kind}',
    operationId: 'consoleDownload',
    summary: 'A link to the original or the processed file (the API’s query rules)',
    request: { params: DownloadParams, query: ProcessedDownloadQuery },
    responses: withMissing('The link', 'No such upload or download'),
  },
} satisfies Record<string, ConsoleRouteSpec>;

export const CONSOLE_ROUTES: ConsoleRouteSpec[] = Object.values(consoleRoutes);
