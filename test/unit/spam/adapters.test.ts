import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import jpeg from 'jpeg-js';
import { manualClock } from '../../support/manual-clock';
import { PinpointSMSVoiceV2Client, SendTextMessageCommand, SendVoiceMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { AwsSmsVoiceTelephony } from '../../../lambdas/spam/telephony/aws-sms-voice';
import { TelephonyError } from '../../../lambdas/spam/telephony/port';
import { DeviceLabCarrierTests } from '../../../lambdas/spam/carrier-test/device-lab';
import { encodeBlockJpeg } from '../../../lambdas/spam/carrier-test/jpeg';
import { SimulatedCarrierTests, simulatedVerdict } from '../../../lambdas/spam/carrier-test/simulator';

const clock = manualClock();

describe('AWS End User Messaging SMS and Voice adapter', () => {
  const sms = mockClient(PinpointSMSVoiceV2Client);
  const telephony = new AwsSmsVoiceTelephony('+12025550100', new PinpointSMSVoiceV2Client({ region: 'us-east-1' }));
  beforeEach(() => sms.reset());
  // The mock replaces the client class's send for the whole process: give it back for the files after this one.
  afterAll(() => sms.restore());

  it('texts the code for sms', async () => {
    sms.on(SendTextMessageCommand).resolves({ MessageId: 'm-1' });
    expect(await telephony.sendCode({ numberId: 'n1', to: '+12023180666', code: '123456', method: 'sms' })).toEqual({ messageId: 'm-1' });
    const input = sms.commandCalls(SendTextMessageCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ DestinationPhoneNumber: '+12023180666', OriginationIdentity: '+12025550100', MessageType: 'TRANSACTIONAL', TimeToLive: 600 });
    expect(input.MessageBody).toContain('123456');
  });

  it('reads the code digit by digit in a voice call for call', async () => {
    sms.on(SendVoiceMessageCommand).resolves({ MessageId: 'v-1' });
    await telephony.sendCode({ numberId: 'n1', to: '+12023180666', code: '042137', method: 'call' });
    const input = sms.commandCalls(SendVoiceMessageCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ MessageBodyTextType: 'SSML', OriginationIdentity: '+12025550100' });
    expect(input.MessageBody).toContain('<say-as interpret-as="digits">0 4 2 1 3 7</say-as>');
    expect(sms.commandCalls(SendTextMessageCommand)).toHaveLength(0);
  });

  it('turns provider errors into TelephonyError', async () => {
    sms.on(SendTextMessageCommand).rejects(Object.assign(new Error('Destination opted out'), { name: 'ValidationException' }));
    await expect(telephony.sendCode({ numberId: 'n1', to: '+12023180666', code: '123456', method: 'sms' })).rejects.toThrow(TelephonyError);
    sms.on(SendVoiceMessageCommand).resolves({});
    await expect(telephony.sendCode({ numberId: 'n1', to: '+12023180666', code: '123456', method: 'call' })).rejects.toThrow(/no message id/);
  });

  it('refuses to start without an origination identity', () => {
    expect(() => new AwsSmsVoiceTelephony('')).toThrow(/ORIGINATION_IDENTITY/);
  });
});

/** A fake device lab on loopback, following the contract in docs/spam-monitoring.md. */
interface FakeCall {
  polls: number;
  body: Record<string, unknown>;
}
describe('device-lab HTTP adapter against a fake lab on 127.0.0.1', () => {
  let server: Server;
  let base = '';
  const calls = new Map<string, FakeCall>();
  let behaviour: 'flagged' | 'clean' | 'failed' | 'never' | 'garbage' | 'error500' = 'flagged';
  const seenAuth: string[] = [];
  const screenshot = encodeBlockJpeg([[10, 200], [200, 10]], 'fake lab');

  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
  };

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      seenAuth.push(String(req.headers.authorization));
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (behaviour === 'error500') return send(500, { error: 'boom' });
      if (req.method === 'POST' && req.url === '/v1/test-calls') {
        const id = `call-${calls.size + 1}`;
        calls.set(id, { polls: 0, body: await readBody(req) });
        return send(202, { id, status: 'queued' });
      }
      const match = /^\/v1\/test-calls\/([^/]+)(\/screenshot)?$/.exec(req.url ?? '');
      const call = match && calls.get(decodeURIComponent(match[1]!));
      if (!call) return send(404, { error: 'not found' });
      if (match![2]) return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(screenshot);
      if (behaviour === 'garbage') return send(200, { id: match![1], status: 'exploded' });
      call.polls++;
      if (behaviour === 'never' || call.polls < 2) return send(200, { id: match![1], status: 'running' });
      if (behaviour === 'failed') return send(200, { id: match![1], status: 'failed', sip_response_code: 486, error: 'handset busy' });
      return send(200, {
        id: match![1],
        status: 'completed',
        spam_detected: behaviour === 'flagged',
        displayed_label: behaviour === 'flagged' ? 'Scam Likely' : null,
        sip_response_code: 200,
        caller_id_verified: behaviour !== 'flagged',
        originating_carrier: 'verizon',
        screenshot_available: true,
        captured_at: '2030-01-02T12:00:01Z',
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const lab = () => new DeviceLabCarrierTests({ baseUrl: base, token: async () => 'lab-token', pollIntervalMs: 0, maxPolls: 5 });
  const request = { testRunId: 'run-1', numberId: 'n1', phoneNumber: '+12023180666', carrier: 't-mobile' as const, day: '2030-01-02' };

  it('requests a call, polls to completion and fetches the screenshot', async () => {
    behaviour = 'flagged';
    const outcome = await lab().runTest(request);
    expect(outcome).toMatchObject({
      status: 'completed',
      spam_detected: true,
      spam_label: 'Scam Likely',
      sip_response_code: '200',
      caller_id_verified: false,
      originating_carrier: 'verizon',
      captured_at: '2030-01-02T12:00:01.000Z',
      simulated: false,
      error: null,
    });
    expect(outcome.screenshot?.contentType).toBe('image/jpeg');
    expect(outcome.screenshot?.bytes.equals(screenshot)).toBe(true);
    expect([...calls.values()].at(-1)!.body).toEqual({ from: '+12023180666', carrier: 't-mobile', reference: 'run-1' });
    expect(new Set(seenAuth)).toEqual(new Set(['Bearer lab-token']));
  });

  it('reports a clean call as not flagged', async () => {
    behaviour = 'clean';
    expect(await lab().runTest(request)).toMatchObject({ status: 'completed', spam_detected: false, spam_label: null });
  });

  it('maps lab failures, stuck calls, malformed answers and server errors to a failed outcome', async () => {
    behaviour = 'failed';
    expect(await lab().runTest(request)).toMatchObject({ status: 'failed', sip_response_code: '486', error: 'handset busy', spam_detected: null, screenshot: null });
    behaviour = 'never';
    expect(await lab().runTest(request)).toMatchObject({ status: 'failed', error: expect.stringMatching(/did not finish/) });
    behaviour = 'garbage';
    expect(await lab().runTest(request)).toMatchObject({ status: 'failed', error: expect.stringMatching(/device lab error/) });
    behaviour = 'error500';
    expect(await lab().runTest(request)).toMatchObject({ status: 'failed', error: expect.stringMatching(/answered 500/) });
  });

  it('insists on https except on loopback', () => {
    expect(() => new DeviceLabCarrierTests({ baseUrl: 'http://lab.example.com', token: async () => 't' })).toThrow(/https/);
  });
});

describe('simulator and its JPEG screenshots', () => {
  it('produces decodable JPEGs of the declared size', () => {
    const bytes = encodeBlockJpeg([[0, 255, 128], [255, 0, 64]], 'test');
    const image = jpeg.decode(bytes, { useTArray: true });
    expect([image.width, image.height]).toEqual([24, 16]);
    // Flat blocks decode to their shade (within JPEG rounding).
    const pixel = (x: number, y: number) => image.data[(y * image.width + x) * 4]!;
    expect(Math.abs(pixel(3, 3) - 0)).toBeLessThanOrEqual(2);
    expect(Math.abs(pixel(11, 3) - 255)).toBeLessThanOrEqual(2);
    expect(Math.abs(pixel(19, 11) - 64)).toBeLessThanOrEqual(2);
    expect(() => encodeBlockJpeg([], 'x')).toThrow();
  });

  it('is deterministic per number, carrier and day, and says it is simulated', () => clock.run(async () => {
    expect(simulatedVerdict('+12023180666', 'at&t', '2030-01-03')).toBe('flagged');
    expect(simulatedVerdict('+12023180667', 'at&t', '2030-01-03')).toBe('clean');
    expect(simulatedVerdict('+12023180667', 'verizon', '2030-01-03')).toBe('flagged');
    expect(simulatedVerdict('+12023180668', 'at&t', '2030-01-02')).toBe('flagged');
    expect(simulatedVerdict('+12023180668', 'at&t', '2030-01-03')).toBe('clean');
    expect(simulatedVerdict('+12023180669', 't-mobile', '2030-01-03')).toBe('failed');
    expect(simulatedVerdict('+12023180123', 'verizon', '2030-01-03')).toBe('clean');
    const sim = new SimulatedCarrierTests();
    // The screen shows the capture time, so the same clock gives the same image.
    const at = Date.parse('2030-01-03T09:15:00Z');
    clock.set(() => at);
    let a, b, later;
    try {
      a = await sim.runTest({ testRunId: 'r', numberId: 'n', phoneNumber: '+12023180666', carrier: 'verizon', day: '2030-01-03' });
      b = await sim.runTest({ testRunId: 'r2', numberId: 'n', phoneNumber: '+12023180666', carrier: 'verizon', day: '2030-01-03' });
      clock.set(() => at + 60_000);
      later = await sim.runTest({ testRunId: 'r3', numberId: 'n', phoneNumber: '+12023180666', carrier: 'verizon', day: '2030-01-03' });
    } finally {
      clock.set(null);
    }
    expect(a.simulated).toBe(true);
    expect(a.screenshot!.bytes.equals(b.screenshot!.bytes)).toBe(true);
    expect(a.screenshot!.bytes.equals(later.screenshot!.bytes)).toBe(false);
    expect(a.screenshot!.bytes.toString('latin1')).toContain('SIMULATED');
  }));
});
