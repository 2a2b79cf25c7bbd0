import { ErrorEnvelope } from '../platform/http/common-schemas';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';

// The console's routes without their request schemas (./routes.ts adds them): what routing, the
// sign-in check and the subscription gate read, and the responses the OpenAPI document lists. The
// console function's cold start carries this table only; each route's schemas and operation load
// with its panel at the route's first request (lambdas/functions/http/console-api.ts).

const common = { fn: 'console' as const, auth: 'console' as const, tags: ['console'] };
const errors = {
  400: { description: 'Invalid input', schema: ErrorEnvelope },
  401: { description: 'Not signed in', schema: ErrorEnvelope },
  403: { description: 'Not a member of an organization, or an owner-only action', schema: ErrorEnvelope },
};
const answer = (description: string) => ({ 200: { description }, ...errors });
const withMissing = (description: string, missing: string) => ({ ...answer(description), 404: { description: missing, schema: ErrorEnvelope } });
// Spam monitoring needs an active subscription, as the API's spam calls do (the same gate: requireActiveSubscription).
const spam = { ...common, subscription: true as const };
const noSubscription = { 403: { description: 'Not a member of an organization, or the organization’s subscription is not active', schema: ErrorEnvelope } };

export const CONSOLE_ROUTE_TABLE = {
  openapi: { ...common, method: 'GET', path: '/console/api/openapi.json', operationId: 'consoleOpenApi', summary: 'This document: the console API in OpenAPI 3.1', responses: answer('The document') },
  me: { ...common, method: 'GET', path: '/console/api/me', operationId: 'consoleMe', summary: 'The signed-in person, their organization and role', responses: answer('Who is signed in') },
  listKeys: { ...common, method: 'GET', path: '/console/api/keys', operationId: 'consoleListKeys', summary: 'API keys of the organization (owners)', responses: answer('Keys, newest first') },
  mintKey: {
    ...common,
    method: 'POST',
    path: '/console/api/keys',
    operationId: 'consoleMintKey',
    summary: 'Mint an API key (owners); the key is shown only here',
    responses: answer('The new key'),
  },
  revokeKey: { ...common, method: 'DELETE', path: '/console/api/keys/{id}', operationId: 'consoleRevokeKey', summary: 'Revoke an API key (owners)', responses: withMissing('Revoked', 'No such key in the organization') },
  listMembers: { ...common, method: 'GET', path: '/console/api/members', operationId: 'consoleListMembers', summary: 'Members of the organization (owners)', responses: answer('Members') },
  inviteMember: {
    ...common,
    method: 'POST',
    path: '/console/api/members',
    operationId: 'consoleInviteMember',
    summary: 'Invite a person by email as a member (owners): in AWS Cognito emails a temporary password; locally the password is answered (and logged) for the owner to pass on',
    responses: { ...answer('The new member and how they sign in'), 409: { description: 'Already a member, or being invited right now', schema: ErrorEnvelope } },
  },
  removeMember: { ...common, method: 'DELETE', path: '/console/api/members/{userId}', operationId: 'consoleRemoveMember', summary: 'Remove a member and revoke their keys (owners)', responses: withMissing('Removed', 'Not a member') },
  listWebhooks: { ...common, method: 'GET', path: '/console/api/webhooks', operationId: 'consoleListWebhooks', summary: 'Webhook endpoints and the event types (owners)', responses: answer('Endpoints') },
  createWebhook: { ...common, method: 'POST', path: '/console/api/webhooks', operationId: 'consoleCreateWebhook', summary: 'Register an endpoint (owners): the API’s own rules and ping', responses: { ...answer('The endpoint and its secret, shown once'), 409: { description: 'The organization already has an endpoint for this URL', schema: ErrorEnvelope } } },
  updateWebhook: { ...common, method: 'POST', path: '/console/api/webhooks/{id}', operationId: 'consoleUpdateWebhook', summary: 'Change an endpoint (owners): a changed url is pinged first', responses: { ...withMissing('The endpoint', 'No such endpoint'), 409: { description: 'Another endpoint of the organization has this URL', schema: ErrorEnvelope } } },
  deleteWebhook: { ...common, method: 'DELETE', path: '/console/api/webhooks/{id}', operationId: 'consoleDeleteWebhook', summary: 'Delete an endpoint (owners)', responses: withMissing('Deleted', 'No such endpoint') },
  redeliverWebhook: {
    ...common,
    method: 'POST',
    path: '/console/api/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
    operationId: 'consoleRedeliverWebhook',
    summary: 'Send an ended delivery again (owners): one more signed attempt, same event id; a double click reopens it once',
    responses: { ...withMissing('The delivery, pending again', 'No such endpoint or delivery'), 409: { description: 'The delivery succeeded, is still being retried, or the endpoint is disabled', schema: ErrorEnvelope } },
  },
  webhookDeliveries: {
    ...common,
    method: 'GET',
    path: '/console/api/webhooks/{id}/deliveries',
    operationId: 'consoleWebhookDeliveries',
    summary: 'Deliveries of an endpoint, newest first (owners)',
    responses: withMissing('A page of deliveries', 'No such endpoint'),
  },
  listSpam: { ...spam, method: 'GET', path: '/console/api/spam', operationId: 'consoleListSpam', summary: 'Monitored numbers', responses: { ...answer('Numbers'), ...noSubscription } },
  addSpam: { ...spam, method: 'POST', path: '/console/api/spam', operationId: 'consoleAddSpam', summary: 'Monitor a number; starts verification', responses: { ...answer('The number, pending verification'), ...noSubscription } },
  deleteSpam: { ...spam, method: 'DELETE', path: '/console/api/spam/{id}', operationId: 'consoleDeleteSpam', summary: 'Stop monitoring a number', responses: { ...withMissing('Deleted', 'No such number'), 409: { description: 'Another request is deleting this number', schema: ErrorEnvelope }, ...noSubscription } },
  verifySpam: { ...spam, method: 'POST', path: '/console/api/spam/{id}/verify', operationId: 'consoleVerifySpam', summary: 'Submit the verification code', responses: { ...withMissing('The number', 'No such number'), ...noSubscription } },
  resendSpam: { ...spam, method: 'POST', path: '/console/api/spam/{id}/resend', operationId: 'consoleResendSpam', summary: 'Send a new verification code, by `method` or else the way the last code went (the way the number was added)', responses: { ...withMissing('Sent', 'No such number'), ...noSubscription } },
  spamHistory: { ...spam, method: 'GET', path: '/console/api/spam/{id}/history', operationId: 'consoleSpamHistory', summary: 'Test history of a number', responses: { ...withMissing('History', 'No such number'), ...noSubscription } },
  spamScreenshot: {
    ...spam,
    method: 'GET',
    path: '/console/api/spam/{id}/screenshot',
    operationId: 'consoleSpamScreenshot',
    summary: 'The latest call-screen image as a data: URL (the page’s CSP allows data: images only)',
    responses: { ...withMissing('The image', 'No such number or image'), ...noSubscription },
  },
  credits: { ...common, method: 'GET', path: '/console/api/credits', operationId: 'consoleCredits', summary: 'Balance and the newest ledger entries', responses: answer('Balance and ledger') },
  listUploads: {
    ...common,
    method: 'GET',
    path: '/console/api/uploads',
    operationId: 'consoleListUploads',
    summary: 'Drafts and uploads of the organization; ?q= searches file names, ?status= filters uploads',
    responses: answer('Drafts and a page of uploads (filtered: up to 99, from at most 1,000 read)'),
  },
  discardUpload: {
    ...common,
    method: 'DELETE',
    path: '/console/api/uploads/{id}',
    operationId: 'consoleDiscardUpload',
    summary: 'Discard a draft not yet confirmed (nothing was charged)',
    responses: { ...withMissing('The draft was discarded', 'No such draft'), 409: { description: 'Validating, confirming or confirmed', schema: ErrorEnvelope } },
  },
  startUpload: {
    ...common,
    method: 'POST',
    path: '/console/api/uploads',
    operationId: 'consoleStartUpload',
    summary: 'Start a draft from a CSV body (?filename=)',
    responses: answer('The draft'),
  },
  stageUpload: { ...common, subscription: true, method: 'POST', path: '/console/api/uploads/staging', operationId: 'consoleStageUpload', summary: 'A presigned POST for a file too large for the API', responses: answer('Where to post the file') },
  startStagedUpload: {
    ...common,
    method: 'POST',
    path: '/console/api/uploads/staged',
    operationId: 'consoleStartStagedUpload',
    summary: 'Start a draft from a staged file',
    responses: answer('The draft'),
  },
  getUpload: { ...common, method: 'GET', path: '/console/api/uploads/{id}', operationId: 'consoleGetUpload', summary: 'An upload, or a draft', responses: withMissing('The upload or the draft', 'No such upload or draft') },
  mapUpload: { ...common, method: 'POST', path: '/console/api/uploads/{id}/mapping', operationId: 'consoleMapUpload', summary: 'Map a draft’s columns; validates and prices it', responses: withMissing('The draft', 'No such draft') },
  confirmUpload: {
    ...common,
    subscription: true,
    method: 'POST',
    path: '/console/api/uploads/{id}/confirm',
    operationId: 'consoleConfirmUpload',
    summary: 'Charge the price shown and start processing (409 when the price changed)',
    responses: { ...withMissing('The upload', 'No such draft'), 402: { description: 'Not enough credits', schema: ErrorEnvelope }, 409: { description: 'The price changed, or the draft is not ready', schema: ErrorEnvelope } },
  },
  rereadUpload: {
    ...common,
    method: 'POST',
    path: '/console/api/uploads/{id}/format',
    operationId: 'consoleRereadUpload',
    summary: 'Read a draft’s file again with another delimiter, encoding or header choice (each one left out is detected)',
    responses: { ...withMissing('The draft, back to pending_mapping', 'No such draft'), 409: { description: 'The draft is validating or confirmed', schema: ErrorEnvelope } },
  },
  uploadReport: { ...common, method: 'GET', path: '/console/api/uploads/{id}/report', operationId: 'consoleUploadReport', summary: 'A link to the draft’s validation report', responses: withMissing('The link', 'No such draft') },
  download: {
    ...common,
    method: 'GET',
    path: '/console/api/uploads/{id}/download/{kind}',
    operationId: 'consoleDownload',
    summary: 'A link to the original (the CSV processed), the file as it was sent (`sent`: the console converted it; else the original) or the processed file (the API’s query rules)',
    responses: { ...withMissing('The link', 'No such upload or download'), 410: { description: 'The file is no longer stored (retention, or missing from storage: logged for the operator)', schema: ErrorEnvelope } },
  },
} satisfies Record<string, ConsoleRouteSpec>;

export type ConsoleRouteName = keyof typeof CONSOLE_ROUTE_TABLE;
