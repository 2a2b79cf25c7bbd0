// The Lambda runtime's part, played in a child process: loads one bundle by file URL (the bundle
// sits alone in an empty folder), then runs invocations sent over IPC with a Lambda-shaped context,
// one container per function kept warm as Lambda does. Nothing of the project is imported here.
//
// argv: <bundle file URL> <export name> <function name> <timeout seconds> [<host>=<public ip>@<loopback port> ...]
// Each host mapping stands in for the internet: the name resolves to a public address (so the
// service's URL-safety rules pass as they would in AWS) and connections to it reach a loopback port.
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { randomUUID } from 'node:crypto';

const [bundleUrl, exportName, functionName, timeoutSeconds, ...mappings] = process.argv.slice(2);
const hosts = new Map(
  mappings.map((m) => {
    const [host, rest] = m.split('=');
    const [address, port] = rest.split('@');
    return [host, { address, port: Number(port) }];
  }),
);

if (hosts.size) {
  const fakeLookup = (original) =>
    function lookup(hostname, options, callback) {
      const cb = typeof options === 'function' ? options : callback;
      const opts = typeof options === 'object' && options !== null ? options : {};
      const mapped = hosts.get(hostname);
      if (!mapped) return original.call(this, hostname, options, callback);
      if (opts.all) return cb(null, [{ address: mapped.address, family: 4 }]);
      return cb(null, mapped.address, 4);
    };
  const originalLookup = dns.lookup;
  dns.lookup = fakeLookup(originalLookup);
  const originalPromiseLookup = dns.promises.lookup;
  dns.promises.lookup = async (hostname, options) => {
    const mapped = hosts.get(hostname);
    if (!mapped) return originalPromiseLookup(hostname, options);
    return options?.all ? [{ address: mapped.address, family: 4 }] : { address: mapped.address, family: 4 };
  };
  syncBuiltinESMExports();
  // Connections to a mapped host go to its loopback port; TLS still verifies the host name.
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (...args) {
    const options = args[0];
    if (options && typeof options === 'object' && !Array.isArray(options) && hosts.has(options.host)) {
      const mapped = hosts.get(options.host);
      args[0] = {
        ...options,
        port: mapped.port,
        lookup: (_h, o, cb) => (o && o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)),
      };
    }
    return connect.apply(this, args);
  };
}

// The runtime's clock, which a test may move forward (a retry due in a minute) without waiting.
const RealDate = Date;
let clockOffsetMs = 0;
class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + clockOffsetMs);
    else super(...args);
  }
  static now() {
    return RealDate.now() + clockOffsetMs;
  }
}
globalThis.Date = ShiftedDate;

const module = await import(bundleUrl);
const handler = module[exportName];
if (typeof handler !== 'function') {
  process.send({ type: 'fatal', error: `export ${exportName} is not a function` });
  process.exit(1);
}
process.send({ type: 'ready' });

process.on('message', async (message) => {
  if (message.type === 'clock') {
    clockOffsetMs = message.offsetMs;
    process.send({ type: 'clock-set', id: message.id });
    return;
  }
  if (message.type !== 'invoke') return;
  const started = Date.now();
  const requestId = randomUUID();
  const context = {
    awsRequestId: requestId,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:111111111111:function:${functionName}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: requestId,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, Number(timeoutSeconds) * 1000 - (Date.now() - started)),
  };
  try {
    const value = await handler(message.event, context);
    process.send({ type: 'result', id: message.id, ok: true, value: value === undefined ? null : JSON.parse(JSON.stringify(value)) });
  } catch (error) {
    process.send({ type: 'result', id: message.id, ok: false, error: { errorType: error?.name ?? 'Error', errorMessage: String(error?.message ?? error) } });
  }
});
