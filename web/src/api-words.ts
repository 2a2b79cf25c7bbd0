// What the console says when a call fails, in words: the API's own detail when it gave one, else
// what happened to the request (the browser's "Failed to fetch" says nothing to a customer).

/** A request that never got an answer: the network, or the service stopped. */
export const UNREACHABLE = 'The service could not be reached. Check your connection and try again; if it persists, the service may be down.';

/** The message for a failed call's answer: its detail, else a sentence for its status. */
export function describeFailure(detail: unknown, status: number): string {
  if (typeof detail === 'string' && detail) return detail;
  if (detail && typeof detail === 'object' && 'message' in detail) return String((detail as { message: unknown }).message);
  if (detail) return JSON.stringify(detail);
  if (status === 0) return UNREACHABLE;
  if (status >= 500) return `The service had a problem answering (${status}). Try again in a moment.`;
  return `The request was refused (${status}).`;
}

/**
 * An API refusal of one field shown beside that field: the API's `Invalid url: ` prefix (which
 * names the JSON field, for integrators) left out, as the page already says what was refused.
 */
export function fieldRefusal(message: string): string {
  return message.replace(/^Invalid [a-z_]+: /, '');
}
