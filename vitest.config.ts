import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A clock a test pins (setClock) never outlives that test.
    setupFiles: ['test/support/restore-time.ts'],
    // Integration tests start embedded DynamoDB/S3 on loopback; keep parallelism modest on 2 cores.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    // Request logs are JSON lines on stdout; tests only need the errors.
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR' },
    hookTimeout: 60_000,
  },
});
