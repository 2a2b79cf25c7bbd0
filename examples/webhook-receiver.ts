// A webhook receiver to try the service with: `node --import tsx examples/webhook-receiver.ts`.
// It listens on 127.0.0.1:4000 (RECEIVER_PORT), next to the service's 3000, verifies every delivery
// over the raw body and prints the events it accepts.
//
// The secret is known only once registration has answered, and registration pings the receiver
// first. So the secret comes from PVS_WEBHOOK_SECRET, or from the file named by
// PVS_WEBHOOK_SECRET_FILE, read on every request: write the secret there after registering. Until
// there is a secret the receiver accepts only the registration ping (which asks for nothing) and
// answers 503 to anything else, so the service retries it later.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { verifyWebhook } from '../lambdas/webhooks/verify-signature';

const port = Number(process.env.RECEIVER_PORT ?? 4000);

function currentSecret(): string | null {
  if (process.env.PVS_WEBHOOK_SECRET) return process.env.PVS_WEBHOOK_SECRET;
  const file = process.env.PVS_WEBHOOK_SECRET_FILE;
  if (!file) return null;
  try {
    return readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const secret = currentSecret();
    if (!secret) {
      const isPing = req.headers['x-service-event'] === 'webhook.ping';
      console.log(isPing ? 'registration ping accepted (no secret yet)' : `no secret yet: ${req.headers['x-service-event']} refused with 503`);
      res.writeHead(isPing ? 204 : 503).end();
      return;
    }
    try {
      const event = verifyWebhook(body, req.headers['x-service-signature'], secret);
      // De-duplicate on event.id; answer 2xx for event types you do not handle too.
      console.log(`${event.type} ${event.id} ${JSON.stringify(event.data).slice(0, 200)}`);
      res.writeHead(204).end();
    } catch (error) {
      console.log(`refused: ${(error as Error).message}`);
      res.writeHead(400).end((error as Error).message);
    }
  });
}).listen(port, '127.0.0.1', () => console.log(`webhook receiver on http://127.0.0.1:${port}/pvs`));
