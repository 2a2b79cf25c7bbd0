// The uploads function's create against the fastest CSV parser, in one warm Lambda-like process
// running the bundled function code (bundle-child.ts): what create costs the function itself, its
// stores (the parent's embedded table and file store, reached over loopback as a Lambda reaches
// S3 and DynamoDB) not counted. Each round parses the file once and creates one staged upload,
// in alternating order, in CPU time; a first round of each warms the process and is not counted.
import { readFileSync } from 'node:fs';
import { stagedCreateEvent, createdId } from './create-event';
import { PARSERS, cpuMs } from './parsers';

process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const [apiKey, csvPath, parserName, ...stagedIds] = process.argv.slice(2) as [string, string, string, ...string[]];
const { uploadsApi } = await import('../lambdas/functions/http/uploads-api');
const { systemNet } = await import('../lambdas/platform/net/outbound');

const csv = readFileSync(csvPath, 'utf8');
const parse = PARSERS[parserName]!;
const handler = uploadsApi({ workflow: async () => {}, deliveryQueue: null, net: systemNet() });
const FIELDS = { phone_column: 'phone', first_name_column: 'first_name', last_name_column: 'last_name' };
const create = async (id: string) => {
  const { event, context } = stagedCreateEvent(apiKey, id, FIELDS);
  createdId(await handler(event, context));
};

const [warm, ...rounds] = stagedIds;
parse(csv);
await create(warm!);
const parserMs: number[] = [];
const createMs: number[] = [];
for (const [r, id] of rounds.entries()) {
  if (r % 2 === 0) {
    parserMs.push(await cpuMs(() => parse(csv)));
    createMs.push(await cpuMs(() => create(id)));
  } else {
    createMs.push(await cpuMs(() => create(id)));
    parserMs.push(await cpuMs(() => parse(csv)));
  }
}
console.log(JSON.stringify({ parserMs, createMs }));
process.exit(0);
