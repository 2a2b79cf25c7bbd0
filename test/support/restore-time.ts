import { afterEach } from 'vitest';
import { setClock } from '../../lambdas/platform/clock';

// Every test file's setup (vitest.config.ts): a test that pinned or moved the service's clock gets
// real time back when it ends, whether it passed, failed or timed out, so a pinned clock can never
// leak into the next test (issue 10 saw a timed-out rate-limit test fail the one after it).
afterEach(() => {
  setClock(null);
});
