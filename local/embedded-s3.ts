import { createRequire } from 'node:module';
import { createServer, type Agent, type RequestListener } from 'node:http';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { makeStoreAtomic, type S3rverFilesystemStore } from './atomic-file-store';
import { repairFileStore } from './file-store-repair';
import { INCOMPLETE_UPLOAD_SWEEP_MS, removeIncompleteUploads } from './incomplete-uploads';
import { removeExpiredStagedFiles } from './staging-expiry';
import { signedStoreGateway } from './signed-store-gateway';
import { logger } from '../lambdas/platform/logger';
import { inProcessAgent } from './in-process-agent';
import type { SigningSecret } from './sigv4';

const require = createRequire(import.meta.url);
interface S3rverApp {
  callback(): RequestListener;
  store: S3rverFilesystemStore;
  logger?: { close(): void };
}
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverApp;

export interface EmbeddedS3 {
  /** Where this process reaches the store (loopback). */
  endpoint: string;
  port: number;
  /** How this process's own client reaches the store: the same server, its connections in memory (in-process-agent.ts). */
  agent: Agent;
  close(): Promise<void>;
}

export interface EmbeddedS3Options {
  /** 0 picks a free port. */
  port?: number;
  /** Interface to listen on (default loopback). */
  host?: string;
  /** Requests must be signed with this (local/sigv4.ts). */
  secret: SigningSecret;
}

/**
 * s3rver with objects stored as files under `dir`, behind a gateway that refuses unsigned or
 * wrongly signed requests (local/signed-store-gateway.ts); s3rver itself never listens. Puts
 * write whole files in order (local/atomic-file-store.ts), and what a kill -9 interrupted is
 * removed on start (local/file-store-repair.ts), so a crash never stops the next start. A
 * multipart upload left incomplete is removed a day after it started (local/incomplete-uploads.ts),
 * a staged file two days after it was staged (local/staging-expiry.ts).
 */
export async function startEmbeddedS3(dir: string, options: EmbeddedS3Options): Promise<EmbeddedS3> {
  mkdirSync(dir, { recursive: true });
  // Beside the store (never inside: a folder there would be a bucket), one folder per start that found any.
  const quarantine = join(`${dir}-quarantine`, new Date().toISOString().replace(/[:.]/g, '-'));
  const { removed, quarantined } = repairFileStore(dir, quarantine);
  if (quarantined.length) {
    logger.error('embedded file store: objects not whole at start were moved out of the store (an interrupted write, or a file damaged since); uploads whose files they were are recovered, or their downloads answer 410 (each logged as upload file missing from storage)', { count: quarantined.length, keys: quarantined.slice(0, 20), quarantine });
  }
  if (removed.length) logger.warn('embedded file store: temporary files of unfinished writes removed', { count: removed.length, files: removed.slice(0, 20) });
  // At start and hourly after, as the deployed buckets' lifecycle rules would (local/incomplete-uploads.ts, local/staging-expiry.ts).
  const sweepUploads = () => {
    try {
      const stale = removeIncompleteUploads(dir);
      if (stale.length) logger.warn('embedded file store: multipart uploads left incomplete for over a day removed, as the incomplete-upload lifecycle rule does', { count: stale.length, uploads: stale.slice(0, 20) });
    } catch (error) {
      logger.error('embedded file store: incomplete multipart uploads could not be removed; the next sweep tries again within the hour', { error: error as Error });
    }
    try {
      const expired = removeExpiredStagedFiles(dir);
      if (expired.length) logger.info('embedded file store: staged files older than two days removed, as the staging lifecycle rule does', { count: expired.length, keys: expired.slice(0, 20) });
    } catch (error) {
      logger.error('embedded file store: could not remove expired staged files', { error: error as Error });
    }
  };
  sweepUploads();
  const s3 = new S3rver({ directory: dir, silent: true, vhostBuckets: false });
  makeStoreAtomic(s3.store);
  const server = createServer(signedStoreGateway(s3.callback(), options.secret));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${options.port} of the embedded file store is in use on ${host}; set FILES_PORT to a free port`, { cause: error }) : error),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const sweeper = setInterval(sweepUploads, INCOMPLETE_UPLOAD_SWEEP_MS);
  sweeper.unref();
  const port = (server.address() as AddressInfo).port;
  // Listening on every interface (0.0.0.0, ::) this process still uses loopback; on one address, that one.
  const reach = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    endpoint: `http://${reach}:${port}`,
    port,
    agent: inProcessAgent(server),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweeper);
        server.closeAllConnections();
        server.close(() => {
          s3.logger?.close();
          resolve();
        });
      }),
  };
}

/** Creates each bucket unless it exists; signs with `credentials`, else the environment's. */
export async function ensureBuckets(endpoint: string, buckets: string[], credentials?: SigningSecret): Promise<void> {
  const client = new S3Client({ endpoint, forcePathStyle: true, region: process.env.AWS_REGION ?? 'us-east-1', credentials });
  try {
    for (const bucket of buckets) {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        continue;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status !== 404) throw new Error(`Cannot check bucket ${bucket} at ${endpoint}: ${(error as Error).name} (HTTP ${status ?? 'no response'})`, { cause: error });
      }
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      } catch (error) {
        // Created meanwhile (another start, or a store that reports existing buckets this way): fine.
        if (!['BucketAlreadyExists', 'BucketAlreadyOwnedByYou'].includes((error as Error).name)) throw error;
      }
    }
  } finally {
    client.destroy();
  }
}
