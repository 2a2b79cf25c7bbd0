import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as admin from '../../../lambdas/admin/admin';
import { db, tableName } from '../../../lambdas/platform/table';
import type { TestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';

/** A fresh organization (own limit, own numbers) with an owner key, so tests do not share state. */
export async function newOrg(name: string, options: { subscription?: boolean; included?: number | null; addons?: number } = {}) {
  const { org, key } = await newCustomer({ name, subscriptionActive: options.subscription ?? true });
  if (options.included !== undefined || options.addons !== undefined) await admin.setSpamLimit(org.id, options.included === undefined ? 5 : options.included, options.addons ?? 0);
  return { id: org.id, key };
}

export interface EventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** The organization's event records of `type` (their data is stored as JSON text: lambdas/webhooks/envelope.ts). */
export async function eventsOf(orgId: string, type: string): Promise<EventRow[]> {
  const out = await db().send(
    new QueryCommand({ TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${orgId}#EVENTS` } }),
  );
  return (out.Items ?? []).filter((i) => i.type === type).map((i) => ({ id: String(i.id), type: String(i.type), data: JSON.parse(String(i.data)) as Record<string, unknown> }));
}

/** Adds a number and verifies it with the code the simulator recorded (the admin CLI's function). */
export async function addVerified(service: TestService, key: string, phone: string): Promise<string> {
  const add = await service.request('POST', '/api/v1/spam/numbers', { body: { phone_number: phone }, key });
  if (add.status !== 201) throw new Error(`add ${phone}: ${add.status} ${await add.text()}`);
  const { number } = (await add.json()) as { number: { id: string; phone_number: string } };
  const [latest] = await admin.spamVerificationCodes(number.phone_number);
  const verify = await service.request('POST', `/api/v1/spam/numbers/${number.id}/verify`, { body: { code: latest!.code }, key });
  if (verify.status !== 200) throw new Error(`verify ${phone}: ${verify.status} ${await verify.text()}`);
  return number.id;
}

export const json = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await response.json()) as T;
