import { afterAll } from 'vitest';
import { configureRoot } from '../../lambdas/platform/config';

// Setup of the shared project (vitest.config.ts), evaluated again before each of its files: the
// files of one worker run in one process, so a file that sets a variable at its top or in a test
// (WEBHOOKS_ALLOW_LOOPBACK, DEPLOYMENT, TABLE_NAME…) gives the environment back as it found it
// when it ends, and the configuration is parsed again from it alone (a runtime's settings, given
// through configureRoot, do not outlive the file either). Runs after the file's own afterAll hooks
// (vitest runs them as a stack), so a runtime the file started has already stopped.
const before = { ...process.env };
// The object itself: a file that replaces it (`process.env = {…}`) leaves vitest's stubEnv of every
// later file in the worker deleting from the old object, so a stubbed variable stays set there.
const environment = process.env;

afterAll(() => {
  const replaced = process.env !== environment;
  if (replaced) process.env = environment;
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
  configureRoot({});
  if (replaced) throw new Error('This file replaced process.env; set and restore its variables in place (vi.stubEnv, or delete and Object.assign)');
});
