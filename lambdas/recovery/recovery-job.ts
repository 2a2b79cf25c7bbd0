import { nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { drainOutbox } from '../webhooks/outbox';
import { recoverCreatingContacts } from '../contacts/create-contact';
import { POOL_LEASE } from '../contacts/pool-lease';
import { releaseLeasesTakenBefore } from '../platform/lease';
import { recoverUploads, resumeUnfinishedUploads } from '../uploads/reconcile';
import { recoverSpamSlots } from '../spam/slot-recovery';
import { clearRecordedInflightMarks } from '../credits/credits';
import type { UploadPorts } from '../uploads/workflow';
import { recoverDrafts } from '../console/web-upload-recovery';

// The one recovery job (EventBridge Scheduler every few minutes in AWS, a timer locally): every
// resource kind's recovery, each driving what an interruption left non-terminal to a terminal
// state, then the outbox drain publishing events a crash left unpublished. Each part claims what
// it works on, so two overlapping runs (Scheduler delivers at least once) never drive one item at
// once. See docs/reliability.md.

/** The writer publishes its own events right away; only older ones are the drain's. */
const OUTBOX_GRACE_MS = 60_000;

export async function runRecovery(ports: UploadPorts) {
  const uploads = await recoverUploads(ports);
  // After the uploads: a draft interrupted while confirming follows the upload it would become.
  const drafts = await recoverDrafts();
  const contacts = await recoverCreatingContacts();
  const spamSlots = await recoverSpamSlots();
  const events = await drainOutbox(ports, new Date(nowMs() - OUTBOX_GRACE_MS).toISOString());
  const summary = { uploads, drafts, contacts, spamSlots, events };
  logger.info('recovery run', summary);
  return summary;
}


/**
 * The local runtime's start: what the previous process left (its in-process executions, requests
 * and publications all died with it) is recovered now, without waiting for stale times. Only
 * items from before `startedAtIso`, so work this process has begun is left alone.
 */
export async function recoverAfterRestart(ports: UploadPorts, startedAtIso: string) {
  // A pool run killed mid-way holds its lease for minutes: the process that held it is gone.
  const leases = await releaseLeasesTakenBefore([POOL_LEASE], Date.parse(startedAtIso));
  const uploads = await resumeUnfinishedUploads(ports, startedAtIso);
  const drafts = await recoverDrafts(startedAtIso);
  const contacts = await recoverCreatingContacts(startedAtIso);
  const spamSlots = await recoverSpamSlots(Date.parse(startedAtIso));
  // The daily billing job does this in AWS; a restarted local process need not wait for it.
  // After the resource recoveries above, which record what was applied but not recorded.
  const inflightMarks = await clearRecordedInflightMarks();
  const events = await drainOutbox(ports, startedAtIso);
  if (leases || uploads || drafts.remapped || drafts.confirmed || drafts.reopened || contacts.resumed || contacts.removed || spamSlots.released || inflightMarks.cleared || events.events) {
    logger.warn('recovered after a restart', { leases, uploads, drafts, contacts, spamSlots, inflightMarks, events });
  }
}
