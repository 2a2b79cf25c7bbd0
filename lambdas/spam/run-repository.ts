import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, queryItems, tableName, putItem, insertItem } from '../platform/table';
import { HISTORY_WINDOW_MS, type Carrier, type CarrierTestStatus } from './carriers';
import * as z from '../platform/zod';
import { readExisting } from '../platform/table-read';
import { carrierSchema, testStatusSchema, verdictFields } from './test-run-fields';

// Test-run history (docs/data-model.md, pattern 28): one row per number, carrier and UTC day,
// overwritten if the day's test is run again, expiring by TTL after 7 days.

export interface TestRunRecord {
  test_run_id: string;
  number_id: string;
  organization_id: string;
  carrier: Carrier;
  day: string;
  status: CarrierTestStatus;
  tested_at: string;
  spam_detected: boolean | null;
  spam_label: string | null;
  sip_response_code: string | null;
  caller_id_verified: boolean | null;
  same_carrier_warning: boolean;
  captured_at: string | null;
  screenshot_key: string | null;
  screenshot_content_type: string | null;
  error: string | null;
  simulated: boolean;
}

const runSchema: z.ZodMiniType<TestRunRecord> = z.lazySchema(() => z.looseObject({
  test_run_id: z.string(),
  number_id: z.string(),
  organization_id: z.string(),
  carrier: carrierSchema,
  day: z.string(),
  status: testStatusSchema,
  tested_at: z.string(),
  ...verdictFields(),
  captured_at: z.nullable(z.string()),
  screenshot_key: z.nullable(z.string()),
  screenshot_content_type: z.nullable(z.string()),
  error: z.nullable(z.string()),
  simulated: z.boolean(),
}));

const runKey = (numberId: string, day: string, carrier: Carrier) => ({ pk: `SPAMNUM#${numberId}`, sk: `RUN#${day}#${carrier}` });

export async function putRun(run: TestRunRecord): Promise<void> {
  const testedMs = Date.parse(run.tested_at);
  await putItem('SpamTestRun', { ...runKey(run.number_id, run.day, run.carrier), ttl: Math.floor((testedMs + HISTORY_WINDOW_MS) / 1000), ...run });
}

/** Rows tested within the window ending at `nowMs`, newest first. dynalite keeps expired rows, so filter here too. */
export async function listRuns(numberId: string, nowMs: number): Promise<TestRunRecord[]> {
  const since = nowMs - HISTORY_WINDOW_MS;
  const rows: TestRunRecord[] = [];
  for await (const item of queryItems({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :run)', ExpressionAttributeValues: { ':pk': `SPAMNUM#${numberId}`, ':run': 'RUN#' }, ScanIndexForward: false })) {
    const run = readExisting('SpamTestRun', runSchema, item);
    if (Date.parse(run.tested_at) >= since && Date.parse(run.tested_at) <= nowMs) rows.push(run);
  }
  return rows.sort((a, b) => b.tested_at.localeCompare(a.tested_at) || a.carrier.localeCompare(b.carrier));
}

export async function deleteRuns(numberId: string): Promise<void> {
  const keys: { pk: unknown; sk: unknown }[] = [];
  for await (const item of queryItems({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :run)', ExpressionAttributeValues: { ':pk': `SPAMNUM#${numberId}`, ':run': 'RUN#' }, ProjectionExpression: 'pk, sk' })) {
    keys.push({ pk: item.pk, sk: item.sk });
  }
  for (let i = 0; i < keys.length; i += 25) {
    await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })) } }));
  }
}

/** Claims the scheduled run of one day (local timer); false when that day already ran. */
export async function claimScheduledDay(day: string, at: string): Promise<boolean> {
  return insertItem('SpamScheduledRun', { pk: `SPAMRUN#${day}`, sk: 'META', started_at: at, ttl: Math.floor(Date.parse(at) / 1000) + 30 * 86_400 });
}
