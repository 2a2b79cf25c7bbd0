// One Lambda-like process running the uploads API function's create, as API Gateway invokes it:
// `POST /api/v1/uploads` with a JSON body naming a staged CSV (a 250,000-row CSV is over Lambda's
// 6 MB event limit, so in AWS it always comes through staging), against the parent's embedded
// table and file store (the environment points there). Runs as a bundle (bundle-child.ts), as the
// function does. Prints the answer's status, its time and the process's own peak memory (VmHWM, as
// pipeline-child.ts, for the same reason).
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

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
const body = JSON.stringify({ staged_upload_id: stagedUploadId, phone_column: 'phone', first_name_column: 'first_name', last_name_column: 'last_name' });
const now = new Date();
const requestId = randomUUID();
const event: APIGatewayProxyEventV2 = {
  version: '2.0',
  routeKey: 'POST /api/v1/uploads',
  rawPath: '/api/v1/uploads',
  rawQueryString: '',
  headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', host: 'bench.local', 'x-forwarded-proto': 'https' },
  isBase64Encoded: false,
  body,
  requestContext: {
    accountId: 'bench',
    apiId: 'bench',
    domainName: 'bench.local',
    domainPrefix: 'bench',
    http: { method: 'POST', path: '/api/v1/uploads', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
    requestId,
    routeKey: 'POST /api/v1/uploads',
    stage: '$default',
    time: now.toUTCString(),
    timeEpoch: now.getTime(),
  },
};

const rssBeforeKb = peakKb();
const t = performance.now();
const result = await handler(event, { awsRequestId: requestId, functionName: 'bench-uploads' } as Context);
const ms = performance.now() - t;
const status = (result as { statusCode: number }).statusCode;
if (status !== 200) throw new Error(`create answered ${status}: ${String((result as { body?: string }).body).slice(0, 500)}`);
const { id } = JSON.parse(String((result as { body?: string }).body)) as { id: string };
console.log(JSON.stringify({ status, id, ms, maxRssKb: peakKb(), rssBeforeKb }));
process.exit(0);
