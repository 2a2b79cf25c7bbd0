import { fork, type ChildProcess } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REGION, type DeployedFunction } from './assembly';
import type { CfnResolver } from './cfn';
import { NODE22 } from './node22';
import { tempDir } from '../support/temp-dirs';

/** Lambda's synchronous invocation payload limit (request and response), in bytes. */
export const LAMBDA_SYNC_PAYLOAD_BYTES = 6 * 1024 * 1024;

export class LambdaInvokeError extends Error {
  constructor(
    readonly functionName: string,
    readonly errorType: string,
    message: string,
  ) {
    super(`${functionName}: ${errorType}: ${message}`);
    // Step Functions matches Retry/Catch on the function's error type.
    this.name = errorType;
  }
}

export interface HostOptions {
  /** The recording endpoint every AWS SDK call of this function goes to (AWS_ENDPOINT_URL). */
  endpoint: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Stand-ins for internet hosts (lambda-runtime-shim.mjs). */
  hosts?: { name: string; publicAddress: string; port: number }[];
  /** PEM file the runtime trusts besides the system CAs (NODE_EXTRA_CA_CERTS), for a stand-in host's certificate. */
  extraCaFile?: string;
}

const SHIM = fileURLToPath(new URL('./lambda-runtime-shim.mjs', import.meta.url));

/**
 * One deployed function: its bundle copied alone into an empty folder and loaded once in a child
 * process on Node 22 (a warm container), with exactly the environment variables its template
 * gives it, resolved, plus what the Lambda runtime itself sets. The one addition is
 * AWS_ENDPOINT_URL, which sends every SDK call to the recording endpoint.
 */
export class DeployedLambda {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private dir = '';
  /** Invocations answered (successfully or with a function error). */
  invocations = 0;
  readonly name: string;
  readonly arn: string;
  readonly environment: Record<string, string>;

  constructor(
    readonly fn: DeployedFunction,
    resolver: CfnResolver,
    private readonly options: HostOptions,
  ) {
    this.name = resolver.physicalName(fn.logicalId);
    this.arn = resolver.getAtt(fn.logicalId, 'Arn');
    const own = resolver.withQueueEndpoint(options.endpoint);
    this.environment = Object.fromEntries(Object.entries(fn.environment).map(([k, v]) => [k, String(own.resolve(v))]));
  }

  /** Starts the container (once). */
  start(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      this.dir = tempDir(`lambda-${this.fn.logicalId}-`);
      cpSync(this.fn.assetDir, this.dir, { recursive: true });
      const [file, exported] = this.fn.handler.split('.') as [string, string];
      const runtimeEnv: Record<string, string> = {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        LANG: 'en_US.UTF-8',
        TZ: ':UTC',
        LAMBDA_TASK_ROOT: this.dir,
        AWS_REGION: REGION,
        AWS_DEFAULT_REGION: REGION,
        AWS_LAMBDA_FUNCTION_NAME: this.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${this.name}`,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_ACCESS_KEY_ID: this.options.credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: this.options.credentials.secretAccessKey,
        AWS_ENDPOINT_URL: this.options.endpoint,
        ...(this.options.extraCaFile ? { NODE_EXTRA_CA_CERTS: this.options.extraCaFile } : {}),
      };
      const hostArgs = (this.options.hosts ?? []).map((h) => `${h.name}=${h.publicAddress}@${h.port}`);
      const child = fork(SHIM, [pathToFileURL(join(this.dir, `${file}.mjs`)).href, exported, this.name, String(this.fn.timeoutSeconds), ...hostArgs], {
        cwd: this.dir,
        execPath: NODE22,
        env: { ...runtimeEnv, ...this.environment },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'advanced',
      });
      this.child = child;
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-8000);
        if (process.env.DEPLOYED_LOGS) process.stderr.write(`[${this.fn.logicalId}] ${chunk}`);
      });
      child.stdout!.on('data', (chunk: Buffer) => {
        if (process.env.DEPLOYED_LOGS) process.stdout.write(`[${this.fn.logicalId}] ${chunk}`);
      });
      child.on('message', (message: { type: string; id?: number; ok?: boolean; value?: unknown; error?: { errorType: string; errorMessage: string } | string }) => {
        if (message.type === 'ready') return resolve();
        if (message.type === 'fatal') return reject(new Error(`${this.fn.logicalId}: ${String(message.error)}`));
        if (message.type === 'clock-set') {
          this.pending.get(message.id!)?.resolve(null);
          this.pending.delete(message.id!);
          return;
        }
        const waiter = this.pending.get(message.id!);
        if (!waiter) return;
        this.pending.delete(message.id!);
        if (message.ok) waiter.resolve(message.value);
        else {
          const error = message.error as { errorType: string; errorMessage: string };
          waiter.reject(new LambdaInvokeError(this.fn.logicalId, error.errorType, error.errorMessage));
        }
      });
      child.on('exit', (code) => {
        const error = new Error(`${this.fn.logicalId} exited with ${code}: ${stderr}`);
        reject(error);
        for (const waiter of this.pending.values()) waiter.reject(error);
        this.pending.clear();
      });
    });
    return this.ready;
  }

  /** A synchronous invocation (RequestResponse): the payload limit applies both ways. */
  async invoke(event: unknown): Promise<unknown> {
    const payload = JSON.stringify(event);
    if (Buffer.byteLength(payload) > LAMBDA_SYNC_PAYLOAD_BYTES) {
      throw new LambdaInvokeError(this.fn.logicalId, 'RequestEntityTooLargeException', `Request must be smaller than ${LAMBDA_SYNC_PAYLOAD_BYTES} bytes for the InvokeFunction operation`);
    }
    await this.start();
    const id = this.nextId++;
    const result = await new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child!.send({ type: 'invoke', id, event: JSON.parse(payload) as unknown });
    }).finally(() => this.invocations++);
    if (Buffer.byteLength(JSON.stringify(result ?? null)) > LAMBDA_SYNC_PAYLOAD_BYTES) {
      throw new LambdaInvokeError(this.fn.logicalId, 'ResponseSizeTooLarge', 'Response payload size exceeded maximum allowed payload size (6291556 bytes).');
    }
    return result;
  }

  /** Moves this container's clock `offsetMs` ahead of real time (time passing, without waiting). */
  async setClockOffset(offsetMs: number): Promise<void> {
    await this.start();
    const id = this.nextId++;
    await new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child!.send({ type: 'clock', id, offsetMs });
    });
  }

  /**
   * Kills the container with SIGKILL (a crash, or the Task's timeout) mid-invocation if one runs;
   * the next invocation starts a fresh container (with `environment` as it is then), as Lambda does.
   */
  async kill(): Promise<void> {
    await this.stop();
    this.child = null;
    this.ready = null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      });
    }
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}


