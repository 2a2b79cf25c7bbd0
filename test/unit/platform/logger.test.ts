import { afterEach, describe, expect, it, vi } from 'vitest';

// The service's JSON logger (lambdas/platform/logger.ts): the lines the Powertools logger printed
// before it, on the streams it used, under the same settings.

type Logger = typeof import('../../../lambdas/platform/logger');

/** The logger module loaded afresh under `env`, and every line it writes, by stream. */
async function fresh(env: Record<string, string | undefined> = {}): Promise<{ log: Logger; out: Record<string, unknown>[]; err: Record<string, unknown>[] }> {
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  vi.resetModules();
  const log = await import('../../../lambdas/platform/logger');
  const out: Record<string, unknown>[] = [];
  const err: Record<string, unknown>[] = [];
  const capture = (into: Record<string, unknown>[]) => ((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n')) if (line) into.push(JSON.parse(line) as Record<string, unknown>);
    return true;
  }) as typeof process.stdout.write;
  vi.spyOn(process.stdout, 'write').mockImplementation(capture(out));
  vi.spyOn(process.stderr, 'write').mockImplementation(capture(err));
  return { log, out, err };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the JSON logger', () => {
  it('writes one line per entry, its fields in order, INFO and below on stdout, WARN and above on stderr', async () => {
    const { log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'DEBUG', POWERTOOLS_SERVICE_NAME: 'svc', _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1' });
    log.logger.debug('d', { n: 1 });
    log.logger.info('i');
    log.logger.warn('w');
    log.logger.error('e');
    expect(out.map((l) => l.level)).toEqual(['DEBUG', 'INFO']);
    expect(err.map((l) => l.level)).toEqual(['WARN', 'ERROR']);
    expect(Object.keys(out[0]!)).toEqual(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id', 'n']);
    expect(out[0]).toMatchObject({ message: 'd', service: 'svc', sampling_rate: 0, xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793', n: 1 });
    expect(new Date(out[0]!.timestamp as string).toISOString()).toBe(out[0]!.timestamp);
  });

  it('leaves out lines below its level (POWERTOOLS_LOG_LEVEL, else LOG_LEVEL, else INFO), and Lambda’s log level wins over both', async () => {
    let { log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'WARN' });
    log.logger.info('hidden');
    log.logger.warn('shown');
    expect([out.length, err.map((l) => l.message)]).toEqual([0, ['shown']]);
    ({ log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: '', LOG_LEVEL: 'error' }));
    log.logger.warn('hidden');
    log.logger.error('shown');
    expect(err.map((l) => l.message)).toEqual(['shown']);
    ({ log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'nonsense', LOG_LEVEL: '' }));
    log.logger.debug('hidden');
    log.logger.info('shown');
    expect(out.map((l) => l.message)).toEqual(['shown']);
    ({ log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'DEBUG', AWS_LAMBDA_LOG_LEVEL: 'FATAL' }));
    log.logger.setLogLevel('DEBUG');
    log.logger.error('hidden');
    expect([out.length, err.length]).toEqual([0, 0]);
    ({ log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'INFO', AWS_LAMBDA_LOG_LEVEL: undefined }));
    log.logger.setLogLevel('SILENT');
    log.logger.error('hidden');
    log.logger.setLogLevel('DEBUG');
    log.logger.debug('shown');
    expect([out.map((l) => l.message), err.length]).toEqual([['shown'], 0]);
  });

  it('writes an error as its name, location, message, stack and cause, its own properties too', async () => {
    const { log, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    // A frame in a named function reads `at made (file:line:column)`: its location (an anonymous one has no parentheses, and is passed over).
    const made = <E extends Error>(make: () => E): E => make();
    const cause = made(() => new TypeError('inner'));
    const error = Object.assign(made(() => new Error('outer', { cause })), { code: 'E_X' });
    log.logger.error('failed', { error, nested: { also: new RangeError('deep') } });
    const line = err[0]!;
    expect(line.error).toEqual({ name: 'Error', location: expect.stringMatching(/logger\.test\.ts:\d+$/) as unknown, message: 'outer', stack: error.stack, cause: { name: 'TypeError', location: expect.stringMatching(/logger\.test\.ts:\d+$/) as unknown, message: 'inner', stack: cause.stack }, code: 'E_X' });
    expect((line.nested as { also: { name: string } }).also.name).toBe('RangeError');
  });

  it('drops empty values and reserved keys, writes bigints as text, and leaves out a value met inside itself', async () => {
    const { log, out } = await fresh({ POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_SERVICE_NAME: 'svc' });
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    log.logger.info('x', { empty: '', none: null, missing: undefined, zero: 0, no: false, level: 'FAKE', service: 'other', big: 12345678901234567890n, loop, twice: [{ a: 1 }, { a: 1 }] });
    expect(out[0]).toEqual({ level: 'INFO', message: 'x', timestamp: out[0]!.timestamp, service: 'svc', sampling_rate: 0, zero: 0, no: false, big: '12345678901234567890', loop: { name: 'loop' }, twice: [{ a: 1 }, { a: 1 }] });
  });

  it('keeps keys appended in a log context to that context, and those appended outside to the lines outside', async () => {
    const { log, out } = await fresh({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    log.logger.appendKeys({ outside: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = log.withLogContext(async () => {
      log.logger.appendKeys({ request_id: 'a' });
      await held;
      log.logger.info('first');
    });
    await log.withLogContext(async () => {
      log.logger.appendKeys({ request_id: 'b' });
      log.logger.info('second');
      log.logger.resetKeys();
      log.logger.info('second, reset');
    });
    release();
    await first;
    log.logger.info('outside');
    expect(out.map((l) => [l.message, l.request_id, l.outside])).toEqual([
      ['second', 'b', undefined],
      ['second, reset', undefined, undefined],
      ['first', 'a', undefined],
      ['outside', undefined, 1],
    ]);
  });

  it('writes every line to stderr once told to (the admin CLI’s stdout is its answer)', async () => {
    const { log, out, err } = await fresh({ POWERTOOLS_LOG_LEVEL: 'INFO' });
    log.sendLogsToStderr();
    log.logger.info('i');
    log.withLogContext(() => log.logger.info('in a context'));
    expect([out.length, err.map((l) => l.message)]).toEqual([0, ['i', 'in a context']]);
  });
});
