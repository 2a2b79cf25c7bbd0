import type { APIGatewayProxyEventV2 } from 'aws-lambda';

// API Gateway hands a Lambda its body as a string (base64 for binary types), so a deployed handler
// decodes it once. The local server already holds the bytes: it attaches them to the event, and the
// string form is only built if something reads `event.body`, instead of encoding 100 MB to base64
// and decoding it straight back. Those bytes are the handler's until it returns: the local server
// reads the next large body into the same memory, zeroed first (local/body-buffers.ts), so whatever
// must outlive the invocation is copied, as it would be from any event.
const attached = new WeakMap<object, Buffer>();

export function attachRawBody(event: APIGatewayProxyEventV2, bytes: Buffer): void {
  attached.set(event, bytes);
}

/** The request body bytes: the attached buffer locally, else decoded from the event. */
export function rawBodyOf(event: APIGatewayProxyEventV2): Buffer {
  const bytes = attached.get(event);
  if (bytes) return bytes;
  return event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
}
