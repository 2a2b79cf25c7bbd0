import { byIdParams } from '../platform/http/common-schemas';

// The path ids of the console's routes (./routes.ts), each with the 404 its malformed or unknown value answers.

export const KeyId = byIdParams('id', 'API key not found', 'id of an API key of the organization');
export const MemberId = byIdParams('userId', 'Member not found', 'user id of a member of the organization');
export const WebhookId = byIdParams('id', 'Webhook endpoint not found', 'id of a webhook endpoint of the organization');
export const SpamId = byIdParams('id', 'Monitored number not found', 'id of a monitored number of the organization');
export const UploadId = byIdParams('id', 'Upload not found', 'id of an upload or a draft of the organization');
