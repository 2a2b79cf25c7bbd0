import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, insertItem, replaceItemIf, tableName } from '../platform/table';
import { readBaseItem } from '../platform/index-claim';
import { sha256Hex } from '../platform/ids';
import { getEndpoint } from './endpoint-repository';
import { Conflict } from '../platform/domain-errors';
import { claimStands, urlIdentity } from './duplicate-url';

// One endpoint per URL and organization, under concurrency (docs/data-model.md, pattern 19a): a
// guard item keyed by the hash of the URL's identity, written with attribute_not_exists before the
// endpoint is (no transactions: dynalite has none). Two registrations of one URL race on this one
// conditional write; exactly one wins. The endpoint's deletion or URL change releases it; a crash
// between the claim and the endpoint's write leaves a claim that the next registration of the URL
// takes over once it is older than URL_CLAIM_BOUND_MS (claimStands).

const claimKey = (orgId: string, url: string) => ({ pk: `WEBHOOKURL#${orgId}#${sha256Hex(urlIdentity(url))}`, sk: 'META' });

/** Claims `url` in `orgId` for `webhookId`: null when claimed, else the id of the endpoint that holds it (409). */
export async function claimUrl(orgId: string, url: string, webhookId: string, nowMs: number): Promise<string | null> {
  const key = claimKey(orgId, url);
  const claim = { ...key, organization_id: orgId, webhook_id: webhookId, claimed_at: nowMs };
  for (let tries = 0; tries < 3; tries++) {
    if (await insertItem('WebhookUrlClaim', claim)) return null;
    const held = await readBaseItem(key);
    if (!held) continue; // released meanwhile: try again
    const holder = String(held.webhook_id);
    if (holder === webhookId) return null;
    const endpoint = await getEndpoint(holder);
    if (claimStands({ claimed_at: Number(held.claimed_at) }, endpoint && endpoint.organization_id === orgId ? endpoint : null, urlIdentity(url), nowMs)) return holder;
    // Left by a crash: taken over, conditioned on the claim as read (another taker may be first).
    const taken = await replaceItemIf('WebhookUrlClaim', claim, 'webhook_id = :seen AND claimed_at = :seenAt', { ':seen': holder, ':seenAt': held.claimed_at });
    if (taken) return null;
  }
  // Contended three times over: other requests are registering this URL right now.
  throw new Conflict('Another request is registering this URL right now; try again in a moment');
}

/** Gives `url` back, if `webhookId` still holds it (a newer claim of another endpoint stays). */
export async function releaseUrl(orgId: string, url: string, webhookId: string): Promise<void> {
  await conditionalWrite(() =>
    db().send(
      new DeleteCommand({ TableName: tableName(), Key: claimKey(orgId, url), ConditionExpression: 'webhook_id = :id', ExpressionAttributeValues: { ':id': webhookId } }),
    ),
  );
}
