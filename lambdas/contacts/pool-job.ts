import { nowMs } from '../platform/clock';
import { newId } from '../platform/ids';
import { logger } from '../platform/logger';
import { withLease } from '../platform/lease';
import { getOrganization } from '../auth/identity-repository';
import { createPoolUpload, type WorkflowPorts } from '../uploads/pool';
import { closeBatch } from './batch-counter';
import { nameFromProperties, type ContactRecord } from './contact';
import { dequeue, getContact, readQueue, transitionContact, type QueueEntry } from './contact-repository';
import { discardContact } from './outcomes';
import { config } from '../platform/config';
import { POOL_LEASE } from './pool-lease';
import { crashPoint } from '../platform/crash-point';

/** Contacts waiting longer than this were not processable (e.g. a long outage): discarded, refunded. */

export interface PoolRunSummary {
  pooled: number;
  uploads: string[];
  discarded: number;
  resumed: number;
}

/**
 * The scheduled pool (EventBridge Scheduler in AWS, a timer locally): queued contacts become
 * `processing` and are classified together as `api_pool` uploads run by the upload pipeline, one
 * upload per organization, tier and identity setting. Max batches close when pooled, so the next
 * max contact starts a new 2, 1, 2, 1 sequence.
 */
export async function runContactPool(ports: WorkflowPorts, steps: PoolSteps = {}): Promise<PoolRunSummary> {
  // Scheduler may start two runs at once: the second finds the lease held and skips.
  const run = await withLease(POOL_LEASE, POOL_LEASE_MS, () => poolOnce(ports, steps));
  if (run.skipped) {
    logger.info('contact pool run skipped: another run holds the lease');
    return { pooled: 0, uploads: [], discarded: 0, resumed: 0 };
  }
  return run.result;
}


/** Longer than the pool function's timeout, so a live run never loses its lease. */
const POOL_LEASE_MS = 6 * 60_000;

/** Test seams between a run's steps (the window in which a create can meet the run). */
export interface PoolSteps {
  /** After the queue is first read, before any batch is closed. */
  afterRead?: () => Promise<void>;
  /** After the batches are closed, before the queue is read again. */
  afterClose?: () => Promise<void>;
}

type Member = { contact: ContactRecord; entry: QueueEntry };

async function poolOnce(ports: WorkflowPorts, steps: PoolSteps = {}): Promise<PoolRunSummary> {
  const summary: PoolRunSummary = { pooled: 0, uploads: [], discarded: 0, resumed: 0 };
  const queued = new Map<string, Member[]>();
  const interrupted = new Map<string, Member[]>();
  const seen = new Set<string>();
  const sort = async (entries: QueueEntry[]) => {
    for (const entry of entries) {
      if (seen.has(entry.contact_id)) continue;
      seen.add(entry.contact_id);
      const contact = await getContact(entry.contact_id);
      if (!contact || ['completed', 'failed', 'discarded'].includes(contact.status)) {
        await dequeue(entry);
      } else if (contact.status === 'queued') {
        push(queued, contact.organization_id, { contact, entry });
      } else if (contact.status === 'processing' && contact.pool_upload_id) {
        // A previous run marked it processing and died before its upload started or the entry left
        // the queue: start the same upload again (idempotent per upload id).
        push(interrupted, contact.pool_upload_id, { contact, entry });
      }
    }
  };
  await sort(await readQueue(config().CONTACT_POOL_BATCH_PER_SHARD));
  await steps.afterRead?.();

  // A max batch is the organization's max contacts charged since it last closed (the 2, 1, 2, 1
  // places): closed first, then the queue read again, so the batch moved is the one closed, whole.
  // Read before closing, a contact created in between was charged in the old batch and left
  // queued, and the next contact started the new batch at place 1 beside it (2, 2 in one queued
  // batch; its pool upload not ceil(N × 1.5)). A contact charged after the close waits for the next
  // run, in the batch it was charged in.
  const closed = new Map<string, number | null>();
  for (const [orgId, members] of queued) {
    if (members.some((m) => m.contact.validation_tier === 'max')) closed.set(orgId, await closeBatch(orgId));
  }
  if (closed.size) {
    crashPoint('pool.after-close');
    await steps.afterClose?.();
    await sort(await readQueue(config().CONTACT_POOL_BATCH_PER_SHARD));
  }
  const inClosedBatch = (member: Member): boolean => {
    if (member.contact.validation_tier !== 'max') return true;
    const orgId = member.contact.organization_id;
    if (!closed.has(orgId)) return false;
    const batch = closed.get(orgId);
    // No balance: nothing was counted. No sequence kept: charged before sequences were (or its answer lost): the first close takes it.
    return batch === null || batch === undefined || (member.contact.batch_sequence ?? -1) <= batch;
  };

  for (const [uploadId, members] of interrupted) {
    await startPool(ports, uploadId, members);
    summary.resumed += members.length;
  }

  for (const [orgId, members] of queued) {
    const org = await getOrganization(orgId);
    const stale = members.filter((m) => !org || nowMs() - Date.parse(m.contact.created_at) > config().CONTACT_MAX_QUEUE_AGE_MS);
    for (const { contact, entry } of stale) {
      const reason = org ? 'Not processed within the maximum queue time; refunded' : 'Organization no longer exists; refunded';
      if (await discardContact(ports, contact, reason)) summary.discarded++;
      await dequeue(entry);
    }
    const live = members.filter((m) => !stale.includes(m) && inClosedBatch(m));
    const groups = new Map<string, typeof live>();
    for (const member of live) {
      const key = `${member.contact.validation_tier}:${nameFromProperties(member.contact.properties) ? 'identity' : 'plain'}`;
      push(groups, key, member);
    }
    for (const group of groups.values()) {
      const uploadId = newId();
      const moved: typeof group = [];
      for (const member of group) {
        const processing = await transitionContact(member.contact, ['queued'], 'processing', { pool_upload_id: uploadId }, new Date(nowMs()).toISOString());
        if (processing) moved.push({ contact: processing, entry: member.entry });
      }
      if (moved.length === 0) continue;
      await startPool(ports, uploadId, moved);
      summary.pooled += moved.length;
      summary.uploads.push(uploadId);
    }
  }
  if (summary.pooled || summary.discarded || summary.resumed) logger.info('contact pool run', { ...summary });
  return summary;
}

async function startPool(ports: WorkflowPorts, uploadId: string, members: { contact: ContactRecord; entry: QueueEntry }[]): Promise<void> {
  const first = members[0]!.contact;
  await createPoolUpload(ports, {
    organizationId: first.organization_id,
    uploadId,
    tier: first.validation_tier,
    skipMobileLookup: false,
    rows: members.map(({ contact }) => {
      const name = nameFromProperties(contact.properties);
      return { contact_id: contact.id, phone: contact.phone, full_name: name?.full, first_name: name?.first, last_name: name?.last };
    }),
  });
  for (const { entry } of members) await dequeue(entry);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
