import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso, nowUnix } from '../../platform/clock';
import { newId } from '../../platform/ids';
import { db, tableName } from '../../platform/table';
import { TelephonyError, type TelephonyPort } from './port';
import { stamp } from '../../platform/table-entities';

/**
 * Local stand-in for the messaging service: nothing is dialled; each "sent" code is written to the
 * table (kept one day) so an operator reads it with `npm run admin -- spam-codes --phone <e164>`.
 * Numbers whose last four digits are 0502 simulate a provider failure (the 502 path).
 */
export const SIMULATED_UNDELIVERABLE_SUFFIX = '0502';

export interface SimulatedMessage {
  id: string;
  to: string;
  number_id: string;
  method: 'call' | 'sms';
  code: string;
  sent_at: string;
}

const outboxPk = (to: string) => `SIMOUTBOX#${to}`;

export class SimulatedTelephony implements TelephonyPort {
  readonly name = 'simulator';

  async sendCode(input: { numberId: string; to: string; code: string; method: 'call' | 'sms' }): Promise<{ messageId: string }> {
    if (input.to.endsWith(SIMULATED_UNDELIVERABLE_SUFFIX)) throw new TelephonyError('simulated delivery failure (number ends in 0502)');
    const message: SimulatedMessage = { id: newId(), to: input.to, number_id: input.numberId, method: input.method, code: input.code, sent_at: nowIso() };
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: outboxPk(input.to), sk: `${message.sent_at}#${message.id}`, ...stamp('SimulatedMessage'), ttl: nowUnix() + 86_400, ...message },
      }),
    );
    return { messageId: message.id };
  }
}

/** Codes the simulator "sent" to a number, newest first. */
export async function readSimulatedMessages(to: string, limit = 10): Promise<SimulatedMessage[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': outboxPk(to) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => ({
    id: String(item.id),
    to: String(item.to),
    number_id: String(item.number_id),
    method: item.method as 'call' | 'sms',
    code: String(item.code),
    sent_at: String(item.sent_at),
  }));
}
