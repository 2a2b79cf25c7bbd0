import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { scaled } from './test/support/wait';

// Node's on-disk compile cache for every process the suite starts: the workers, and through their
// environment the child runtimes, admin CLIs and crash-test children they spawn (about 50
// processes, each loading the AWS SDK, dynalite and the service) load cached bytecode instead of
// compiling the same modules again: 362-388 s of CPU per run before, 328-343 s after, with the
// cache empty at the start as in CI. Node 22.1+ reads it (the `node` devDependency runs the suite);
// an older Node ignores it.
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, 'node_modules', '.cache', 'node-compile-cache');

// Most files share their worker's module cache instead of loading everything again in a fresh
// process: loading aws-cdk-lib and synthesizing the stack once per worker took the unit and infra
// tests from 71 s to 29 s on 2 cores, and loading the local runtime once per worker took the
// integration tests from 110 s to 82 s. What a file could leave behind for the next one is handled:
// each starts its own runtime on its own table (test/support/runtime.ts), gets the environment back
// as it found it (test/support/restore-env.ts), and the service clock back after every test.
// A fresh process per file stays for what replaces process-wide pieces on purpose: the deployed
// layer (the stack's environment and the SDK pointed at its fake endpoints), the crash tests
// (child runtimes, kill -9) and the browser tests.
const ISOLATED = ['test/deployed/**/*.test.ts', 'test/reliability/**/*.test.ts', 'test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    // Three workers on the 2-core target: many files spend much of their time waiting (on child
    // processes they started, the browser, timers, a lock), and a third worker keeps both cores
    // busy meanwhile. Same commit, caches empty: 194 s with two workers, 178 s with three. More
    // would mostly add contention and memory (each worker holds a local runtime).
    pool: 'forks',
    maxWorkers: 3,
    // Bounds that only stop a hung test: 5 minutes, more when the run starts on a loaded machine
    // (test/support/wait.ts; TEST_TIME_SCALE to set it). The load when the run starts says nothing
    // of a second copy of the suite started a minute later, beside which a test takes several
    // times as long and is no less right (a 66 s bound, set at a load of 2, failed a 20 s test
    // that way). Tests do not set shorter bounds of their own.
    testTimeout: Math.max(300_000, scaled(60_000)),
    hookTimeout: Math.max(300_000, scaled(60_000)),
    // expect.poll waits on a condition too, and vitest's 1 s default is a clock: a browser test's
    // focus, polled while a validation request was still running beside a second copy of the suite,
    // was still on the page at 1 s (console-confirm.test.ts).
    expect: { poll: { timeout: scaled(30_000) } },
    // Each test service's clock is an AsyncLocalStorage scope (lambdas/platform/clock.ts); Node 22
    // propagates it with promise hooks unless its context frames are on (the default from Node 24).
    execArgv: ['--experimental-async-context-frame'],
    // Request logs are JSON lines on stdout; tests only need the errors.
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR' },
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false, setupFiles: ['test/support/restore-env.ts', 'test/support/remove-temp-dirs.ts'] },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true, setupFiles: ['test/support/remove-temp-dirs.ts'] } },
    ],
  },
});
