import { dataDirFromEnv } from '../local/environment';
import { InstanceLockedError } from '../local/instance-lock';
import { filesPort, startRuntime, type Runtime } from '../local/runtime';
import { markDemoKeyShown } from '../local/seed';
import { AWS_LIMITS } from '../local/api-gateway-server';
import { busyPorts, freePortPair, portsInUseLine, type BoundPort } from '../local/free-port-pair';
import { config } from '../lambdas/platform/config';

// `npm start`: the whole service on this machine on embedded backends.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = dataDirFromEnv();
// AWS's limits unless raised on purpose: what passes here must pass through API Gateway and Lambda.
const maxBodyBytes = Number(process.env.LOCAL_MAX_BODY_BYTES ?? AWS_LIMITS.httpApiBodyBytes);
const maxPayloadBytes = Number(process.env.LOCAL_MAX_PAYLOAD_BYTES ?? AWS_LIMITS.lambdaPayloadBytes);

/** What to do about a start that failed, in one line (the common causes are the operator's to fix). */
async function startFailure(error: unknown): Promise<string> {
  // The data folder's lock is held: by a live instance or admin command only (it dies with its process).
  if (error instanceof InstanceLockedError) {
    if (error.holder?.adminCommand) return `${error.message} Start again once it has finished, or set DATA_DIR to use a different data folder.`;
    return `${error.message} Stop it first, or set DATA_DIR to use a different data folder.`;
  }
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const keyNote = 'If no API key has been shown yet, the next successful start shows one.';
  // The API's port or the file store's (or both): every port this start listens on that is busy.
  if (e?.code === 'EADDRINUSE' || e?.cause?.code === 'EADDRINUSE') {
    const bound: BoundPort[] = [{ port, what: 'the API', setting: 'PORT' }];
    const filesSet = process.env.FILES_PORT !== undefined && process.env.FILES_PORT !== '';
    if (!process.env.AWS_ENDPOINT_URL) bound.push({ port: filesPort(port), what: 'the embedded file store', setting: filesSet ? 'FILES_PORT' : 'FILES_PORT, default PORT + 1' });
    const busy = await busyPorts(host, bound);
    // Free again by now (its holder stopped): the one the error names.
    if (!busy.length) busy.push(e?.code === 'EADDRINUSE' ? bound[0]! : (bound[1] ?? bound[0]!));
    const free = await freePortPair(host, Math.max(...bound.map((b) => b.port)) + 1);
    // A FILES_PORT given (other than 0, any free port) is suggested too: PORT alone would leave it busy.
    const filesFixed = filesSet && process.env.FILES_PORT !== '0';
    const instead = free === null ? 'choose other ports (PORT, FILES_PORT)' : `start on free ports (PORT=${free}${filesFixed ? ` FILES_PORT=${free + 1}` : ''} npm start)`;
    return `${portsInUseLine(host, busy, instead)} ${keyNote}`;
  }
  if (e?.code === 'EACCES') return `Cannot start: no permission to listen on ${host}:${port}. Choose a port above 1023 (PORT=3000 npm start). ${keyNote}`;
  if (e?.code === 'EADDRNOTAVAIL') return `Cannot start: ${host} is not an address of this machine. Set HOST to one of its addresses (HOST=127.0.0.1 npm start). ${keyNote}`;
  return `Cannot start: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}. ${keyNote} (set DEBUG=1 for the stack trace)`;
}

let runtime: Runtime;
try {
  // One process does every lookup over this data folder (its lock): claims in memory, never outliving it.
  runtime = await startRuntime({ port, host, dataDir, maxBodyBytes, maxPayloadBytes, seedDemo: true, soleProcess: true });
} catch (error) {
  console.error(await startFailure(error));
  if (process.env.DEBUG) console.error(error);
  process.exit(1);
}
const url = runtime.url;
// As the runtime configured it (the simulator unless CLASSIFICATION_PROVIDER names another).
const provider = config().CLASSIFICATION_PROVIDER;
const lines = [
  '',
  `Phone validation service running at ${url}`,
  `  data folder      ${dataDir}`,
  `  table            ${process.env.AWS_ENDPOINT_URL ? 'external endpoint' : 'dynalite (embedded)'} at ${runtime.backends.dynamo}`,
  `  files            ${process.env.AWS_ENDPOINT_URL ? 'external endpoint' : 's3rver (embedded)'} at ${runtime.backends.s3}`,
  `  classification   ${provider}${provider === 'simulator' ? ' (simulated results, not real carrier data)' : ''}`,
  `  API description  ${url}/openapi.json`,
  ...(runtime.console
    ? [
        `  web console      ${url}/  (open this address exactly: sign-in is bound to it)`,
        // The passwords on the start that created them only: not a secret in every start's log.
        ...(runtime.console.created
          ? [
              `    owner sign-in  ${runtime.console.owner.email}  password ${runtime.console.owner.password}`,
              `    member sign-in ${runtime.console.member.email}  password ${runtime.console.member.password}`,
            ]
          : [`    sign-ins       ${runtime.console.owner.email}, ${runtime.console.member.email}: passwords printed on the first start; again: ${process.env.DATA_DIR ? `DATA_DIR=${dataDir} ` : ''}npm run -s admin -- console-passwords`]),
      ]
    : []),
  ...(runtime.demo ? [`  organization id  ${runtime.demo.organizationId}`, `  user id          ${runtime.demo.userId}`] : []),
  '',
];
// The README's examples use $API, $KEY and $ORG (and the admin CLI DATA_DIR): one line sets them.
const dataDirVar = process.env.DATA_DIR ? ` DATA_DIR=${dataDir}` : '';
if (runtime.demo?.apiKey) {
  lines.push(
    'Created a demo organization with an active subscription and credits. Its API key (shown once, keep it):',
    '',
    `  ${runtime.demo.apiKey}`,
    '',
    "In another terminal, in this folder, set what the README's examples use:",
    `  export API=${url} KEY=${runtime.demo.apiKey} ORG=${runtime.demo.organizationId}${dataDirVar}`,
    '',
    'Try it:',
    `  curl -s $API/api/v1/credits/balance -H "Authorization: Bearer $KEY"`,
    '',
  );
} else if (runtime.demo) {
  lines.push(
    "Demo organization already exists; its API key was printed on the first successful start. To set what the README's",
    'examples use with a new key, in another terminal in this folder:',
    `  export API=${url} ORG=${runtime.demo.organizationId}${dataDirVar}`,
    `  export KEY=$(npm run -s admin -- mint-key --org ${runtime.demo.organizationId} --user ${runtime.demo.userId} | node -pe 'JSON.parse(fs.readFileSync(0)).key')`,
    '',
  );
}
lines.push('Press Ctrl-C to stop.');
console.log(lines.join('\n'));
if (runtime.demo?.apiKey) await markDemoKeyShown();

let stopping = false;
// The first signal stops taking requests and lets the uploads being processed finish (with a slow
// lookup provider that can take minutes); a second one stops at once. That is as safe as a kill -9:
// whatever was under way resumes at the next start on the same data folder (docs/reliability.md).
const shutdown = async (signal: string) => {
  if (stopping) {
    console.log(`${signal} again: stopping now; the work under way resumes at the next start on ${dataDir}.`);
    process.exit(130);
  }
  stopping = true;
  console.log(`\n${signal}: shutting down: no new requests; the uploads being processed finish first (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to stop now: they resume at the next start)…`);
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
