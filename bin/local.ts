import { dataDirFromEnv, readRuntimeState } from '../local/environment';
import { startRuntime } from '../local/runtime';

// `npm start`: the whole service on this machine on embedded backends.
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = dataDirFromEnv();
const maxBodyBytes = Number(process.env.LOCAL_MAX_BODY_BYTES ?? 110 * 1024 * 1024);

const running = readRuntimeState(dataDir);
if (running) {
  console.error(`Another instance (pid ${running.pid}) is already serving ${running.apiUrl} from ${dataDir}.`);
  console.error('Stop it first, or set DATA_DIR to use a different data folder.');
  process.exit(1);
}

const runtime = await startRuntime({ port, host, dataDir, maxBodyBytes, seedDemo: true });
const url = runtime.url;
const lines = [
  '',
  `Phone validation service running at ${url}`,
  `  data folder      ${dataDir}`,
  `  table            ${process.env.AWS_ENDPOINT_URL ? 'external endpoint' : 'dynalite (embedded)'} at ${runtime.backends.dynamo}`,
  `  files            ${process.env.AWS_ENDPOINT_URL ? 'external endpoint' : 's3rver (embedded)'} at ${runtime.backends.s3}`,
  `  classification   ${process.env.CLASSIFICATION_PROVIDER}${process.env.CLASSIFICATION_PROVIDER === 'simulator' ? ' (simulated results, not real carrier data)' : ''}`,
  `  API description  ${url}/openapi.json`,
  '',
];
if (runtime.demo?.apiKey) {
  lines.push(
    'Created a demo organization with an active subscription and credits. Its API key (shown once, keep it):',
    '',
    `  ${runtime.demo.apiKey}`,
    '',
    'Try it:',
    `  curl -s ${url}/api/v1/credits/balance -H 'Authorization: Bearer ${runtime.demo.apiKey}'`,
    '',
  );
} else if (runtime.demo) {
  lines.push(
    'Demo organization already exists; its key was printed on first start. To mint another one:',
    `  npm run admin -- mint-key --org ${runtime.demo.organizationId} --user ${runtime.demo.userId}`,
    '',
  );
}
lines.push('Press Ctrl-C to stop.');
console.log(lines.join('\n'));

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: shutting down…`);
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
