import { describe, expect, it } from 'vitest';
import { chunkPlan, FREE_MAP_CONCURRENCY, mapConcurrency, MAX_MAP_CONCURRENCY, MIN_CHUNK_SIZE, uploadChunkPlan } from '../../../lambdas/uploads/chunk-plan';
import { parseConfig } from '../../../lambdas/platform/config';

describe('chunk plan: Map concurrency from the account rate, uploads cut so each gets its share', () => {
  it('runs as many chunks at once as keep the rate busy (32 workers, 0.5 s a lookup: 64/s a chunk)', () => {
    expect(mapConcurrency(200, 32)).toBe(4);
    expect(mapConcurrency(50, 32)).toBe(1);
    expect(mapConcurrency(65, 32)).toBe(2);
    expect(mapConcurrency(1000, 8)).toBe(MAX_MAP_CONCURRENCY);
    expect(mapConcurrency(null, 32)).toBe(FREE_MAP_CONCURRENCY);
  });

  it('hostile settings still give at least one chunk at once', () => {
    expect(mapConcurrency(Number.NaN, 32)).toBe(1);
    expect(mapConcurrency(-5, 0)).toBe(1);
    expect(mapConcurrency(Infinity, 32)).toBe(1);
  });

  it('a small upload is cut into as many chunks as run at once; a large one in chunks of the configured size', () => {
    expect(chunkPlan(5000, 200, 32, 1000)).toEqual({ chunkSize: 250, concurrency: 4 });
    expect(chunkPlan(5000, 200, 32, 20_000)).toEqual({ chunkSize: 5000, concurrency: 4 });
    expect(chunkPlan(5000, 200, 32, 250_000)).toEqual({ chunkSize: 5000, concurrency: 4 });
    expect(chunkPlan(5000, 200, 32, 120)).toEqual({ chunkSize: MIN_CHUNK_SIZE, concurrency: 4 });
    // Unknown count, or a free provider: the configured size.
    expect(chunkPlan(5000, 200, 32, null)).toEqual({ chunkSize: 5000, concurrency: 4 });
    expect(chunkPlan(5000, null, 32, 1000)).toEqual({ chunkSize: 5000, concurrency: FREE_MAP_CONCURRENCY });
  });

  it('reads the stage: the named provider\'s rate and the chunk\'s workers', () => {
    const twilio = parseConfig({ CLASSIFICATION_PROVIDER: 'twilio', TWILIO_REQUESTS_PER_SECOND: '200', CLASSIFY_CONCURRENCY: '32' });
    expect(uploadChunkPlan({ valid_number_count: 1000 }, twilio)).toEqual({ chunkSize: 250, concurrency: 4 });
    const trestle = parseConfig({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_REQUESTS_PER_SECOND: '20' });
    expect(uploadChunkPlan({ valid_number_count: 1000 }, trestle)).toEqual({ chunkSize: 1000, concurrency: 1 });
    expect(uploadChunkPlan({ valid_number_count: 1000 }, parseConfig({ CLASSIFICATION_PROVIDER: 'simulator' }))).toEqual({ chunkSize: 5000, concurrency: FREE_MAP_CONCURRENCY });
  });
});
