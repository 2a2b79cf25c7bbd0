import { config, type Config } from '../platform/config';
import { paidRatePerSecond } from '../classification/paid-rate';
import type { UploadRecord } from './upload';

// How an upload is cut into chunks and how many of its chunks are classified at once (the Map's
// MaxConcurrencyPath, from Prepare's answer). With a paid provider every chunk of every upload
// waits its turn at one account rate (the leased limiter serves waiting chunks in turn), so:
// - each upload runs as many chunks at once as it takes to keep the rate busy alone (a chunk's
//   workers ÷ a lookup's round trip), and no more: more chunks only wait longer on the rate;
// - each upload is cut into at least that many chunks, so a small upload has as many chunks
//   waiting as a large one and gets the same share of the rate while they overlap (a
//   1,000-number upload next to a 250,000-number one is not served at a fifth of its share).
// A free provider has no shared rate: the chunks of CHUNK_SIZE, four at once, as before.

/** Chunks at once per upload with a free provider. */
export const FREE_MAP_CONCURRENCY = 4;
/** A paid lookup's round trip assumed when sizing (Twilio/Telnyx/Trestle answer in 0.1-0.5 s). */
export const LOOKUP_ROUND_TRIP_MS = 500;
/** The most chunks of one upload at once (Step Functions runs an inline Map's iterations up to 40 at once). */
export const MAX_MAP_CONCURRENCY = 40;
/** The smallest chunk a split makes (each chunk is a few S3 objects and Lambda invocations). */
export const MIN_CHUNK_SIZE = 100;

export interface ChunkPlan {
  chunkSize: number;
  concurrency: number;
}

/** Chunks at once for an upload: enough workers to keep `ratePerSecond` busy at LOOKUP_ROUND_TRIP_MS each. */
export function mapConcurrency(ratePerSecond: number | null, workersPerChunk: number): number {
  if (ratePerSecond === null) return FREE_MAP_CONCURRENCY;
  const rate = Number.isFinite(ratePerSecond) && ratePerSecond > 0 ? ratePerSecond : 1;
  const perChunk = Math.max(1, workersPerChunk) * (1000 / LOOKUP_ROUND_TRIP_MS);
  return Math.min(MAX_MAP_CONCURRENCY, Math.max(1, Math.ceil(rate / perChunk)));
}

/** The plan for an upload of `numbers` valid numbers (null: unknown, chunks of the configured size). */
export function chunkPlan(configuredSize: number, ratePerSecond: number | null, workersPerChunk: number, numbers: number | null): ChunkPlan {
  const concurrency = mapConcurrency(ratePerSecond, workersPerChunk);
  if (ratePerSecond === null || numbers === null || numbers <= 0) return { chunkSize: configuredSize, concurrency };
  return { chunkSize: Math.min(configuredSize, Math.max(MIN_CHUNK_SIZE, Math.ceil(numbers / concurrency))), concurrency };
}

/** The plan for an upload with this stage's settings. */
export function uploadChunkPlan(upload: Pick<UploadRecord, 'valid_number_count'>, settings: Config = config()): ChunkPlan {
  return chunkPlan(settings.UPLOAD_CHUNK_SIZE, paidRatePerSecond(settings), settings.CLASSIFY_CONCURRENCY, upload.valid_number_count);
}
