import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { BodyRateWatch, type BodyRateRule } from './body-rate';
import { lingeringClose, send, serverAnswer } from './http-answers';
import { TenantBudgets, type Tenant, type TenantBudgetLimits } from './tenant-budgets';
import { BodyBuffers } from './body-buffers';

export interface BodyLimits {
  maxBodyBytes: number;
  budgets: TenantBudgetLimits;
  /** A body slower than this is cut with 408. */
  minRate: BodyRateRule;
  /**
   * After an answer given before the body was read whole (too large, a refused key, too slow
   * behind the answer): how much more is read and dropped so a client still sending reads the
   * answer; past it the connection is closed (lingering, see lingeringClose).
   */
  drain: { bytes: number; ms: number };
  /** How long a closing connection still reads what its client sends (lingeringClose). */
  lingerMs: number;
}

/** The 413 for a body over the limit: its declared length, or null for a streamed body that grew past it. */
/** The answer to a body over the limit (its declared length, when it had one), for the request it came with. */
export type TooLargeAnswer = (declared: number | null, req: IncomingMessage) => APIGatewayProxyStructuredResultV2;

/** `release`: the body's buffer may be given to another request (body-buffers.ts); nothing may read `body` after. */
export type BodyOutcome = { kind: 'body'; body: Buffer; release(): void } | { kind: 'over-limit' } | { kind: 'too-slow' } | { kind: 'gone' };

const noop = () => undefined;

/** The declared length, or null for a body of unknown length (chunked) or none declared. */
export function declaredLength(req: IncomingMessage): number | null {
  const header = req.headers['content-length'];
  if (header === undefined) return null;
  const n = Number(header);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Whether a request carries a body at all (a length above 0, or a streamed one). */
export const hasBody = (req: IncomingMessage): boolean => (declaredLength(req) ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * How the local server reads request bodies: each within its tenant's share of the in-flight
 * budget (tenant-budgets.ts), cut with 408 when it arrives slower than the minimum rate, 413 past
 * the limit, and every answer given before a body was read whole followed by reading and dropping
 * the rest (bounded) so that it reaches a client that is still sending.
 */
export class RequestBodies {
  readonly budgets: TenantBudgets;
  /** Large bodies are read into buffers kept between requests (body-buffers.ts). */
  readonly buffers = new BodyBuffers();
  private readonly awaitingContinue = new WeakSet<IncomingMessage>();

  constructor(
    readonly limits: BodyLimits,
    private readonly tooLarge: TooLargeAnswer,
  ) {
    this.budgets = new TenantBudgets(limits.budgets);
  }

  /**
   * A request that sent `Expect: 100-continue`: its client sends the body only after `proceed`,
   * so a request refused before its body (a key refused, a declared length over the limit) is
   * answered without the body ever being sent.
   */
  expectsContinue(req: IncomingMessage): void {
    this.awaitingContinue.add(req);
  }

  /** Lets the body come (100 Continue when the client waits for it); for readers of their own (the sign-in pages). */
  proceed(req: IncomingMessage, res: ServerResponse): void {
    if (this.awaitingContinue.delete(req)) res.writeContinue();
  }

  /**
   * Reads the body against the tenant's budget and hands it to `use`; the budget is held until
   * `use` has ended. A body too large or too slow is answered here (413, 408) and `use` never runs;
   * so is nothing when the client went away.
   */
  async withBody(req: IncomingMessage, res: ServerResponse, tenant: Tenant, use: (body: Buffer) => Promise<void>, tooLarge: TooLargeAnswer = this.tooLarge): Promise<void> {
    const max = this.limits.maxBodyBytes;
    const declared = declaredLength(req);
    if (declared !== null && declared > max) return this.answerEarly(req, res, tooLarge(declared, req));
    // A body of unknown length may grow to the limit.
    const release = await this.budgets.acquire(tenant, declared ?? (hasBody(req) ? max : 0));
    let held = true;
    const free = () => {
      if (held) release();
      held = false;
    };
    try {
      this.proceed(req, res);
      const outcome = await readBody(req, max, this.limits.minRate, this.buffers);
      switch (outcome.kind) {
        case 'gone':
          return;
        case 'over-limit':
          // Nothing of it is kept: it holds no share of the budget while the rest is dropped.
          free();
          return this.answerEarly(req, res, tooLarge(null, req));
        case 'too-slow':
          free();
          return this.cut(req, res, tooSlowAnswer(this.limits.minRate));
        case 'body':
          // The handler has returned (and its answer is sent) before the buffer is given back.
          try {
            return await use(outcome.body);
          } finally {
            outcome.release();
          }
      }
    } finally {
      free();
    }
  }

  /**
   * Answers a request whose body has not been read (or not whole): the answer goes out now, and
   * the rest of the body is read and dropped so that a client still sending (without
   * `Expect: 100-continue`, as Node's fetch and most libraries) reads the answer rather than
   * EPIPE or a reset. The connection stays usable when the body ends within the drain bound; past
   * it (bytes, time, or slower than the minimum rate) the connection is closed, lingering.
   */
  answerEarly(req: IncomingMessage, res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
    if (req.complete) return send(res, result);
    if (this.awaitingContinue.delete(req)) {
      // The client waits for 100 Continue before sending the body, and will not get it.
      return this.cut(req, res, result);
    }
    const { drain, minRate } = this.limits;
    let drained = 0;
    let stopped = false;
    const stop = (close: boolean) => {
      if (stopped) return;
      stopped = true;
      watch.stop();
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', ended);
      req.off('close', ended);
      if (close) this.closeAfterAnswer(req, res);
    };
    const count = (chunk: Buffer) => {
      drained += chunk.length;
      watch.add(chunk.length);
      if (drained > drain.bytes) stop(true);
    };
    const ended = () => stop(false);
    const watch = new BodyRateWatch(minRate, () => stop(true));
    const timer = setTimeout(() => stop(true), drain.ms);
    req.on('data', count);
    req.once('end', ended);
    req.once('close', ended);
    send(res, result);
  }

  /** Answers now and closes the connection once the answer is out, lingering (a client too slow to wait for). */
  cut(req: IncomingMessage, res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
    send(res, result);
    this.closeAfterAnswer(req, res);
  }

  private closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
    // Whatever still comes is read and dropped until the socket goes.
    req.on('data', noop);
    const close = () => lingeringClose(req.socket, this.limits.lingerMs);
    if (res.writableFinished) close();
    else res.once('finish', close);
  }
}

export const tooSlowAnswer = (rule: BodyRateRule): APIGatewayProxyStructuredResultV2 =>
  serverAnswer(408, `The request body arrived slower than ${rule.bytesPerSecond} bytes per second (over ${rule.windowMs / 1000} s); send it again on a faster connection, or large files through the staging path (docs/uploads.md)`);

/**
 * The body in one buffer. With a Content-Length (the HTTP parser guarantees the body is exactly
 * that long) the bytes are copied once into a buffer of that size leased from `buffers`, instead of
 * being held twice by a chunk list and its concatenation. A streamed body that grows past `max` is dropped ('over-limit',
 * the rest not read); a body slower than `rate` is abandoned ('too-slow'); 'gone' when the client
 * went away before its end.
 */
export function readBody(req: IncomingMessage, max: number, rate: BodyRateRule, buffers: BodyBuffers): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const declared = declaredLength(req);
    const lease = declared !== null ? buffers.lease(declared) : null;
    const sized = lease?.bytes ?? null;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: BodyOutcome) => {
      // A body not handed on: its buffer is nobody's.
      if (outcome.kind !== 'body') lease?.release();
      watch.stop();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onGone);
      req.off('error', onGone);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      watch.add(chunk.length);
      if (sized) {
        size += chunk.copy(sized, size);
        return;
      }
      size += chunk.length;
      if (size <= max) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      finish({ kind: 'over-limit' });
    };
    const onEnd = () => {
      const body = sized ? (size === sized.length ? sized : sized.subarray(0, size)) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      finish({ kind: 'body', body, release: lease?.release ?? noop });
    };
    const onGone = () => finish({ kind: 'gone' });
    const watch = new BodyRateWatch(rate, () => finish({ kind: 'too-slow' }));
    if (req.destroyed) return finish({ kind: 'gone' });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onGone);
    req.once('error', onGone);
  });
}
