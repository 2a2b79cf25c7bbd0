// Every error leaves the service as `{ "detail": string | object }` (spec, Errors).
export type ErrorDetail = string | Record<string, unknown>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: ErrorDetail) => new HttpError(400, detail);
export const unauthorized = (detail: string) => new HttpError(401, detail, { 'WWW-Authenticate': 'Bearer' });
export const paymentRequired = (detail: string) => new HttpError(402, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const notFound = (detail = 'Not found') => new HttpError(404, detail);
export const conflict = (detail: ErrorDetail) => new HttpError(409, detail);
export const gone = (detail: string) => new HttpError(410, detail);
export const payloadTooLarge = (detail: string) => new HttpError(413, detail);
export const unsupportedMediaType = (detail: string) => new HttpError(415, detail);
export const unprocessable = (detail: ErrorDetail) => new HttpError(422, detail);
export const badGateway = (detail: string) => new HttpError(502, detail);
