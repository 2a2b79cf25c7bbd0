import { reloadConfig } from '../../../lambdas/platform/config';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cursorScope, decodeCursor, encodeCursor } from '../../../lambdas/platform/cursor';
import { toHttpError } from '../../../lambdas/platform/http/error-response';
import { localCursorSecret } from '../../../local/cursor-secret';
import { tempDir } from '../../support/temp-dirs';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['CURSOR_SECRET', 'CURSOR_SECRET_ARN', 'DEPLOYMENT', 'AWS_LAMBDA_FUNCTION_NAME']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
    reloadConfig();
  }
});

const position = { pk: 'UPLOAD#1', sk: 'META', gsi1pk: 'ORG#o#UPLOADS', gsi1sk: '2026#1' };
const status = async (promise: Promise<unknown>) => promise.then(() => 200, (error: unknown) => toHttpError(error)?.status ?? 500);

describe('cursor key', () => {
  it('a cursor issued under one CURSOR_SECRET decodes after a restart with the same secret, and not under another', async () => {
    const scope = cursorScope('uploads', 'o');
    process.env.CURSOR_SECRET = 'a'.repeat(64);
    reloadConfig();
    const cursor = await encodeCursor(scope, position);
    reloadConfig(); // a restart: the key is derived again from the same secret
    expect(await decodeCursor(scope, cursor)).toEqual(position);
    process.env.CURSOR_SECRET = 'b'.repeat(64);
    reloadConfig();
    expect(await status(decodeCursor(scope, cursor))).toBe(400);
  });

  it('binds the filters: the same list with another filter value, or none, does not decode', async () => {
    const cursor = await encodeCursor(cursorScope('contacts', 'o', { status: 'queued' }), position);
    expect(await status(decodeCursor(cursorScope('contacts', 'o', { status: 'queued' }), cursor))).toBe(200);
    expect(await status(decodeCursor(cursorScope('contacts', 'o', { status: 'completed' }), cursor))).toBe(400);
    expect(await status(decodeCursor(cursorScope('contacts', 'o', { status: undefined }), cursor))).toBe(400);
    expect(await status(decodeCursor(cursorScope('contacts', 'p', { status: 'queued' }), cursor))).toBe(400);
  });

  it('a deployed function without a configured key refuses to guess one (a 500 with a log line, not a silent random key)', async () => {
    delete process.env.CURSOR_SECRET;
    delete process.env.CURSOR_SECRET_ARN;
    process.env.AWS_LAMBDA_FUNCTION_NAME = 'uploads';
    reloadConfig();
    await expect(encodeCursor(cursorScope('uploads', 'o'), position)).rejects.toThrow(/CURSOR_SECRET/);
  });

  it('refuses a CURSOR_SECRET shorter than 32 characters', async () => {
    process.env.CURSOR_SECRET = 'short';
    reloadConfig();
    await expect(encodeCursor(cursorScope('uploads', 'o'), position)).rejects.toThrow(/at least 32/);
  });
});

describe('local cursor secret', () => {
  it('is generated once in the data folder, readable by the owner only, and reused', () => {
    const dir = join(tempDir('cursor-'), 'data');
    const first = localCursorSecret(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dir, 'cursor-secret')).mode & 0o777).toBe(0o600);
    expect(localCursorSecret(dir)).toBe(first);
    expect(readFileSync(join(dir, 'cursor-secret'), 'utf8').trim()).toBe(first);
    expect(localCursorSecret(tempDir('cursor-'))).not.toBe(first);
  });
});
