import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BodyRateWatch } from '../../../local/body-rate';
import { waitFor } from '../../support/wait';

describe('BodyRateWatch', () => {
  it('a stall of this process is not taken for a slow client: bytes that arrived meanwhile count before the verdict', async () => {
    const events: string[] = [];
    let watch: BodyRateWatch | undefined;
    let serverSide: Socket | undefined;
    const server = createServer((socket) => {
      serverSide = socket;
      watch = new BodyRateWatch({ bytesPerSecond: 1024, windowMs: 100 }, () => events.push('slow'));
      socket.on('data', (d) => {
        watch!.add(d.length);
        events.push('data');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const client = connect(port, '127.0.0.1');
    try {
      await waitFor('the connection', () => (watch ? true : null), 30_000, 5);
      client.write(Buffer.alloc(20 * 1024));
      // The process is busy for three windows while the bytes wait in the kernel.
      const until = Date.now() + 300;
      while (Date.now() < until);
      await waitFor('the bytes read', () => (events.includes('data') ? true : null), 30_000, 5);
      expect(events[0]).toBe('data');
      // A client that then sends nothing is slow at the end of a later window.
      await waitFor('the verdict', () => (events.includes('slow') ? true : null), 30_000, 5);
      expect(events.filter((e) => e === 'slow')).toEqual(['slow']);
    } finally {
      watch?.stop();
      client.destroy();
      serverSide?.destroy();
      server.close();
    }
  });
});
