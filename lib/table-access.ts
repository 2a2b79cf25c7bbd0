import type { ApiFunctionName } from '../lambdas/platform/http/route-spec';
import type { KeyPattern } from './table-keys';

/** The DynamoDB actions a function may be granted on the table. */
export type TableAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchGetItem' | 'BatchWriteItem';

// Which items of the single table each function reaches: its DynamoDB operations and the
// partition-key patterns (lib/table-keys.ts) it builds keys from. grantTable turns each into
// statements conditioned on dynamodb:LeadingKeys, so a function reaches only these partitions.
// test/deployed/least-privilege.test.ts holds each list to the key literals of the function's
// shipped bundle (no pattern missing, none extra), and the deployed walk checks every call's keys.
//
// The granularity is the partition: an organization's own partition (`ORG#<org>`) holds its
// settings, members, balance, ledger and counters together. A function that only reads some
// partitions names them in `readOnly`: there it gets the read actions alone, so the functions
// every API request runs through (platform, credits, webhooks) cannot write a balance at all; a
// function that charges can, by IAM, write any item of the organization's partition
// (docs/deployment.md, "Permissions per function").

export interface TableAccess {
  actions: readonly TableAction[];
  /** Partition-key patterns, table and index ones together: grantTable sorts them out. */
  keys: readonly KeyPattern[];
  /** Of `keys`, the partitions the function only reads: granted `actions` ∩ READ_ACTIONS there. */
  readOnly?: readonly KeyPattern[];
}

/** The actions that read; the others of TableAction write. */
export const READ_ACTIONS: readonly TableAction[] = ['GetItem', 'Query', 'BatchGetItem'];

const READ_WRITE: readonly TableAction[] = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'];
/** Authenticating reads a key seen before with its user and organization in one BatchGetItem (lambdas/auth). */
const AUTHENTICATING: readonly TableAction[] = ['GetItem', 'Query', 'UpdateItem', 'BatchGetItem'];

/** Authenticating an API key (its item, its organization, its creator) and its rate bucket. */
const AUTHENTICATION: readonly KeyPattern[] = ['APIKEY#*', 'ORG#*', 'USER#*', 'RATE#*'];
/** Of those, authenticating only reads the organization and the user (it writes the key's last use and the rate bucket). */
const READS_ORGANIZATION: readonly KeyPattern[] = ['ORG#*', 'USER#*'];
/** Publishing events: the event record, the endpoints of the organization, their deliveries (due ones on gsi2). */
const EVENTS: readonly KeyPattern[] = ['EVENT#*', 'WEBHOOK#*', 'DELIVERY#*', 'DELIVERY#DUE'];

/** Platform and credits only read, besides the rate limiter's bucket updates. */
export const API_TABLE_ACCESS: Record<ApiFunctionName, TableAccess> = {
  platform: { actions: AUTHENTICATING, keys: AUTHENTICATION, readOnly: READS_ORGANIZATION },
  credits: { actions: AUTHENTICATING, keys: AUTHENTICATION, readOnly: READS_ORGANIZATION },
  uploads: { actions: [...READ_WRITE, 'BatchGetItem'], keys: [...AUTHENTICATION, ...EVENTS, 'UPLOAD#*', 'UPLOAD#WATCH', 'STAGED#*', 'OUTBOX'] },
  // A contact and its ledger entry are written together (BatchWriteItem: lambdas/contacts/create-contact.ts).
  contacts: { actions: [...READ_WRITE, 'BatchGetItem', 'BatchWriteItem'], keys: [...AUTHENTICATION, 'CONTACT#*', 'CONTACTQ#*', 'IDEMP#*', 'RECOVER#ContactCreate'] },
  // WEBHOOKURL#*: one endpoint per URL (lambdas/webhooks/url-claim.ts).
  webhooks: { actions: [...READ_WRITE, 'BatchGetItem'], keys: [...AUTHENTICATION, 'WEBHOOK#*', 'WEBHOOKURL#*', 'DELIVERY#*', 'DELIVERY#DUE'], readOnly: READS_ORGANIZATION },
  spam: {
    actions: [...READ_WRITE, 'BatchGetItem', 'BatchWriteItem'],
    keys: [...AUTHENTICATION, ...EVENTS, 'OUTBOX', 'SPAMNUM#*', 'SPAMNUM#VERIFIED', 'SPAMPHONE#*', 'RECOVER#SpamNumberCount', 'SIMOUTBOX#*'],
  },
};

/** The upload workflow's steps. */
export const UPLOAD_STEP_TABLE_ACCESS = {
  prepare: { actions: ['GetItem', 'Query', 'UpdateItem'], keys: ['UPLOAD#*', 'UPLOAD#WATCH'] },
  // Reads its upload, takes tokens from the provider's shared rate bucket, reads and writes the lookup cache in batches.
  // The upload's items only read: the function that parses a third party's answers cannot change an upload's record.
  classify: { actions: ['GetItem', 'Query', 'UpdateItem', 'BatchGetItem', 'BatchWriteItem'], keys: ['UPLOAD#*', 'RATE#*', 'LOOKUP#*'], readOnly: ['UPLOAD#*'] },
  finalize: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], keys: ['UPLOAD#*', 'UPLOAD#WATCH', 'ORG#*', 'OUTBOX', ...EVENTS] },
  fail: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], keys: ['UPLOAD#*', 'UPLOAD#WATCH', 'ORG#*', 'OUTBOX', ...EVENTS] },
  notifyPool: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], keys: ['UPLOAD#*', 'CONTACT#*', 'ORG#*', 'OUTBOX', ...EVENTS] },
} satisfies Record<string, TableAccess>;

export const BILLING_JOB_TABLE_ACCESS: TableAccess = { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], keys: ['ORG#*', 'BALANCES'] };

/** The delivery consumer and the sweeper (due deliveries on gsi2). */
export const WEBHOOK_WORKER_TABLE_ACCESS = {
  consumer: { actions: ['GetItem', 'Query', 'UpdateItem'], keys: ['WEBHOOK#*', 'DELIVERY#*'] },
  sweeper: { actions: ['GetItem', 'Query', 'UpdateItem'], keys: ['WEBHOOK#*', 'DELIVERY#*', 'DELIVERY#DUE'] },
} satisfies Record<string, TableAccess>;

/** The recovery job: every item a crash can leave owing work (gsi2/gsi3 watch lists), and the outbox's holders. */
export const RECOVERY_JOB_TABLE_ACCESS: TableAccess = {
  // BatchWriteItem: a contact create finished from its claim (lambdas/contacts).
  actions: [...READ_WRITE, 'BatchWriteItem'],
  keys: [
    // BALANCES: the balances with charges marked under way (a contact create cut short).
    'ORG#*', 'BALANCES', 'OUTBOX', ...EVENTS,
    'UPLOAD#*', 'UPLOAD#WATCH',
    'CONTACT#*', 'CONTACTQ#*', 'RECOVER#Contact', 'IDEMP#*', 'RECOVER#ContactCreate',
    'SPAMNUM#*', 'SPAMPHONE#*', 'RECOVER#SpamNumberCount',
    'WEBUPLOAD#*', 'RECOVER#WebUploadDraft',
  ],
};

/** The contact pool: its lease, the queue shards, the contacts, the pool's upload. */
export const CONTACT_POOL_TABLE_ACCESS: TableAccess = {
  actions: READ_WRITE,
  keys: ['LEASE#*', 'CONTACTQ#*', 'CONTACT#*', 'UPLOAD#*', 'UPLOAD#WATCH', 'ORG#*', 'OUTBOX', ...EVENTS],
};

export const SPAM_TABLE_ACCESS = {
  dailyRun: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], keys: ['SPAMNUM#*', 'SPAMNUM#VERIFIED', 'ORG#*'] },
  testConsumer: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], keys: ['SPAMNUM#*', 'ORG#*', 'OUTBOX', ...EVENTS] },
} satisfies Record<string, TableAccess>;

/** The console's API: the signed-in member's organization and everything its pages manage. */
export const CONSOLE_TABLE_ACCESS: TableAccess = {
  actions: [...READ_WRITE, 'BatchGetItem', 'BatchWriteItem'],
  keys: [
    ...AUTHENTICATION, 'APIKEYID#*', 'OUTBOX', ...EVENTS, 'WEBHOOKURL#*',
    'UPLOAD#*', 'UPLOAD#WATCH', 'WEBUPLOAD#*', 'RECOVER#WebUploadDraft',
    'SPAMNUM#*', 'SPAMNUM#VERIFIED', 'SPAMPHONE#*', 'RECOVER#SpamNumberCount', 'SIMOUTBOX#*',
  ],
};
