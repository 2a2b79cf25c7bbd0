import { join } from 'node:path';
import { ROUTES } from '../lambdas/api/routes';
import { runWithClock, systemClock, type Clock } from '../lambdas/platform/clock';
import { localCursorSecret } from './cursor-secret';
import { BODY_DEFAULTS, startLocalApi, type LocalApi, type LocalApiOptions } from './api-gateway-server';
import { ensureTable, startEmbeddedDynamo, type EmbeddedDynamo } from './embedded-dynamodb';
import { ensureBuckets, startEmbeddedS3, type EmbeddedS3 } from './embedded-s3';
import { EXTERNAL_CREDENTIALS, localDefaults, localStorage, localStoreSecret, removeLegacyRuntimeFile, storeEnvironment } from './environment';
import { acquireInstanceLock, type InstanceLock } from './instance-lock';
import { sharedSettings } from './instance-settings';
import { startInstanceControl } from './instance-control';
import { apiFunctions } from './functions';
import { WORKER_STARTERS, type LocalWorker } from './workers';
import { recoverBeforeServing } from './scheduled-jobs';
import { ensureDemoAccount, type DemoAccount } from './seed';
import { configureRoot } from '../lambdas/platform/config';
import { bindStorage } from '../lambdas/platform/storage';
import type { SigningSecret } from './sigv4';
import { createConsoleLayer } from './console-server';
import { ensureConsoleAccounts, type ConsoleAccounts } from './console-seed';
import { createLocalRoot, type LocalRoot, type PortOverrides } from './composition';
import type { Ports } from '../lambdas/composition/ports';
import type { TenantBudgets } from './tenant-budgets';

export interface RuntimeOptions {
  port: number;
  host: string;
  /** Where the table and files persist; null keeps everything in memory/temp (tests). */
  dataDir: string | null;
  maxBodyBytes: number;
  /** Lambda's synchronous payload limit applied to each request's event (default 6 MB, as in AWS). */
  maxPayloadBytes?: number;
  seedDemo: boolean;
  /** Stand-ins for the local root's ports (tests: a failing telephony, a recording delivery queue). */
  ports?: PortOverrides;
  /** The time of everything this runtime serves and runs (tests: a clock they move); the system's by default. */
  clock?: Clock;
  /**
   * Every lookup over this runtime's stores runs in this process (`npm start`, whose data folder's
   * lock keeps any other out): lookups claim numbers in memory, not in the table
   * (LOOKUP_CLAIMS=process, unless the environment says otherwise). Not for tests and benches that
   * run chunks in processes of their own beside the runtime.
   */
  soleProcess?: boolean;
  /** The local server's body rules, over the environment's (tests: a shorter window of the minimum rate). */
  bodies?: Pick<LocalApiOptions, 'maxInFlightBodyBytes' | 'anonymousInFlightBodyBytes' | 'totalInFlightBodyBytes' | 'minBodyRate' | 'overLimitDiscard' | 'lingerMs'>;
}

export interface Runtime {
  url: string;
  demo: DemoAccount | null;
  backends: { dynamo: string; s3: string };
  /** The temporary folder holding the file store's files when no data folder was given (removed at stop); null otherwise. */
  scratchDir: string | null;
  /** The web console's sign-ins (with the demo account only). */
  console: ConsoleAccounts | null;
  /**
   * What a process started beside this runtime needs in its environment to reach the runtime's
   * stores as a Lambda would (tests and the bench run the deployed ClassifyChunk entry as a child).
   */
  environment: Record<string, string>;
  /** The local composition root's ports: what the runtime's handlers and jobs use (tests call use cases with them). */
  ports: Ports;
  /** The runtime's clock: requests, jobs and workflow steps it runs read the time from it. */
  clock: Clock;
  /** The local server's in-flight body budgets, per organization (tests look at what is held). */
  bodyBudgets: TenantBudgets;
  /** Runs `fn` with the runtime's clock, as its own work runs (tests that call use cases directly). */
  run<T>(fn: () => T): T;
  /** Waits until every upload workflow started so far has ended. */
  settleWorkflows(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The whole service on one machine: embedded DynamoDB and S3 (or LocalStack when AWS_ENDPOINT_URL
 * is set), the API Gateway emulating server, and the in-process stand-ins for the workflow, queues
 * and schedules. All of it is started inside the clock's scope, so the server's requests, the
 * workers' timers and the workflow's steps read the runtime's clock (lambdas/platform/clock.ts).
 */
export function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  // On Node 22 an AsyncLocalStorage in use installs promise hooks that cost every await about 10%
  // (measured on the concurrency tests); the system clock is what no scope reads anyway, so
  // `npm start` opens none and pays nothing.
  if (clock === systemClock) return startInScope(options, clock);
  return runWithClock(clock, () => startInScope(options, clock));
}

async function startInScope(options: RuntimeOptions, clock: Clock): Promise<Runtime> {
  const external = process.env.AWS_ENDPOINT_URL;
  let dynamo: EmbeddedDynamo | null = null;
  let s3: EmbeddedS3 | null = null;
  let api: LocalApi | null = null;
  let root: LocalRoot | null = null;
  let releaseStorage = () => {};
  // The file store's folder when no data folder was given: removed when the runtime stops.
  let scratch: string | null = null;
  // One instance per data folder: the lock is taken before anything in the folder is opened, and
  // the operating system drops it with this process however it ends (docs/architecture.md).
  const lock: InstanceLock | null = options.dataDir ? await acquireInstanceLock(options.dataDir) : null;
  try {
    if (options.dataDir) removeLegacyRuntimeFile(options.dataDir);
    const secret = external ? undefined : localStoreSecret(options.dataDir);
    if (!external) {
      dynamo = await startEmbeddedDynamo(options.dataDir ? join(options.dataDir, 'dynamodb') : null, { secret });
      if (!options.dataDir) scratch = await tempDir();
      const s3Dir = join(options.dataDir ?? scratch!, 's3');
      s3 = await startEmbeddedS3(s3Dir, { secret: secret!, host: options.host, port: filesPort(options.port) });
    }
    const endpoints = { dynamo: external ?? dynamo!.endpoint, s3: external ?? s3!.endpoint };
    // This runtime is a composition root: its settings join the environment (never written) and
    // are parsed once; its storage is bound for every repository of the process until it stops.
    const settings = { defaults: { ...localDefaults(options.dataDir ? localCursorSecret(options.dataDir) : undefined), ...(options.soleProcess ? { LOOKUP_CLAIMS: 'process' } : {}) } };
    const cfg = configureRoot(settings);
    const linkEndpoint = s3 ? filesPublicUrl(s3) : undefined;
    releaseStorage = bindStorage(localStorage(endpoints, secret, linkEndpoint, s3?.agent));
    await ensureTable(endpoints.dynamo, cfg.TABLE_NAME!, storeCredentials(secret));
    await ensureBuckets(endpoints.s3, [cfg.FILES_BUCKET!, cfg.SCREENSHOTS_BUCKET!], storeCredentials(secret));

    root = createLocalRoot(options.ports, { dataDir: options.dataDir });
    const ports = root.ports;
    const demo = options.seedDemo ? await ensureDemoAccount() : null;
    const consoleLayer = createConsoleLayer({ maxBodyBytes: options.maxBodyBytes, ports });
    await recoverBeforeServing(ports);
    api = await startLocalApi({
      prelude: consoleLayer.prelude,
      routes: ROUTES,
      functions: apiFunctions(ports),
      port: options.port,
      host: options.host,
      maxBodyBytes: options.maxBodyBytes,
      maxPayloadBytes: options.maxPayloadBytes,
      requestTimeoutMs: numberFromEnv('LOCAL_REQUEST_TIMEOUT_MS'),
      headersTimeoutMs: numberFromEnv('LOCAL_HEADERS_TIMEOUT_MS'),
      maxInFlightBodyBytes: numberFromEnv('LOCAL_MAX_INFLIGHT_BODY_BYTES', 'bytes'),
      minBodyRate: minBodyRateFromEnv(),
      ...options.bodies,
    });
    const consoleAccounts = demo ? await ensureConsoleAccounts(demo, options.dataDir) : null;
    if (consoleAccounts) consoleLayer.attach(api.url, consoleAccounts);
    const workers: LocalWorker[] = [];
    for (const start of WORKER_STARTERS) workers.push(await start(ports));
    const control = lock && ports.deliveryQueue ? await startInstanceControl(ports.deliveryQueue) : null;
    if (control) workers.push(control);
    lock?.publish({
      apiUrl: api.url,
      dynamoEndpoint: endpoints.dynamo,
      s3Endpoint: endpoints.s3,
      // The settings its jobs run with, for the admin CLI (links signed for where clients reach the store).
      settings: sharedSettings({ ...settings.defaults, ...process.env, S3_LINK_ENDPOINT: linkEndpoint !== endpoints.s3 ? linkEndpoint : undefined }),
      ...(control ? { control: { url: control.url, token: control.token } } : {}),
    });

    const running = { api, dynamo, s3, root };
    return {
      url: api.url,
      demo,
      backends: endpoints,
      scratchDir: scratch,
      console: consoleAccounts,
      environment: storeEnvironment(endpoints, storeCredentials(secret), { TABLE_NAME: cfg.TABLE_NAME, FILES_BUCKET: cfg.FILES_BUCKET, SCREENSHOTS_BUCKET: cfg.SCREENSHOTS_BUCKET, DEPLOYMENT: cfg.DEPLOYMENT }, linkEndpoint),
      ports,
      clock,
      bodyBudgets: api.bodies.budgets,
      run: (fn) => runWithClock(clock, fn),
      settleWorkflows: () => running.root.settleWorkflows(),
      stop: async () => {
        await running.api.close();
        for (const worker of workers.reverse()) await worker.stop();
        await running.root.stop();
        await running.s3?.close();
        await running.dynamo?.close();
        releaseStorage();
        await removeScratch(scratch);
        await lock?.release();
      },
    };
  } catch (error) {
    await api?.close();
    await root?.stop();
    await s3?.close();
    await dynamo?.close();
    releaseStorage();
    await removeScratch(scratch);
    await lock?.release();
    throw error;
  }
}

/** What the runtime signs its own requests to the stores with: the embedded store's secret, or any (LocalStack). */
const storeCredentials = (secret: SigningSecret | undefined): SigningSecret => secret ?? EXTERNAL_CREDENTIALS;

/**
 * The embedded store's port: FILES_PORT, else the API's port + 1, so it is the same on every start
 * and download links outlive a restart (a random port when the API's is; tests).
 */
export function filesPort(apiPort: number): number {
  const configured = process.env.FILES_PORT;
  if (configured !== undefined && configured !== '') {
    const n = Number(configured);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`FILES_PORT must be a port number; got '${configured}'`);
    return n;
  }
  return apiPort === 0 ? 0 : apiPort + 1;
}

/**
 * The base of the links clients are given (downloads, staging): FILES_PUBLIC_URL, e.g.
 * http://192.168.1.20:3001 when HOST=0.0.0.0 serves other machines; else where this machine
 * reaches the store. Links are signed for that host, and the store checks them as received.
 */
function filesPublicUrl(s3: EmbeddedS3): string {
  const configured = process.env.FILES_PUBLIC_URL;
  if (!configured) return s3.endpoint;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new Error(`FILES_PUBLIC_URL must be an absolute http(s) URL; got '${configured}'`);
  }
  if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search) {
    throw new Error(`FILES_PUBLIC_URL must be an http(s) origin with no path or query (e.g. http://192.168.1.20:3001); got '${configured}'`);
  }
  return url.origin;
}

function numberFromEnv(name: string, unit = 'milliseconds'): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number of ${unit}; got '${value}'`);
  return n;
}

/** LOCAL_BODY_MIN_BYTES_PER_SECOND over the default window (BODY_DEFAULTS.minBodyRate). */
function minBodyRateFromEnv(): LocalApiOptions['minBodyRate'] {
  const bytesPerSecond = numberFromEnv('LOCAL_BODY_MIN_BYTES_PER_SECOND', 'bytes per second');
  return bytesPerSecond === undefined ? undefined : { ...BODY_DEFAULTS.minBodyRate, bytesPerSecond };
}

/** Without this, every test runtime and bench run left its files behind (tens of GB over a day of runs). */
async function removeScratch(dir: string | null): Promise<void> {
  if (!dir) return;
  const { rm } = await import('node:fs/promises');
  await rm(dir, { recursive: true, force: true });
}

async function tempDir(): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  return mkdtemp(join(tmpdir(), 'pvs-'));
}
