// One Lambda-like process running the uploads API function's create, as API Gateway invokes it:
// `POST /api/v1/uploads` with a JSON body naming a staged CSV (a 250,000-row CSV is over Lambda's
// 6 MB event limit, so in AWS it always comes through staging), against the parent's embedded
// table and file store (the environment points there). Runs as a bundle (bundle-child.ts), as the
// function does. Prints the answer's status, its time and the process's own peak memory (VmHWM, as
// pipeline-child.ts, for the same reason).
import { readFileSync } from 'node:fs';
import { stagedCreateEvent, createdId } from './create-event';

process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const [apiKey, stagedUploadId] = process.argv.slice(2) as [string, string];
const { uploadsApi } = await import('../lambdas/functions/http/uploads-api');
const { systemNet } = await import('../lambdas/platform/net/outbound');

const peakKb = (): number => {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS;
};

// The workflow is not started: the measurement is the create call alone.
const handler = uploadsApi({ workflow: async () => {}, deliveryQueue: null, net: systemNet() });
const { event, context } = stagedCreateEvent(apiKey, stagedUploadId, { phone_column: 'phone', first_name_column: 'first_name', last_name_column: 'last_name' });

const rssBeforeKb = peakKb();
const t = performance.now();
const result = await handler(event, context);
const ms = performance.now() - t;
const id = createdId(result);
console.log(JSON.stringify({ status: 200, id, ms, maxRssKb: peakKb(), rssBeforeKb }));
process.exit(0);
