import { afterAll, beforeEach } from 'vitest';
import { removeTempDirs } from './temp-dirs';

// Setup of both projects (vitest.config.ts), evaluated before each file: the folders the file made
// with tempDir go when it ends, after its own afterAll hooks have stopped what used them (vitest
// runs after-hooks as a stack). A file with a failing test keeps them: its error may name one
// (a crash test's data folder) to look into.
let failed = false;
beforeEach(({ onTestFailed }) => onTestFailed(() => void (failed = true)));
afterAll(() => {
  if (!failed) removeTempDirs();
});
