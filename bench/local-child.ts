// One `npm start`-equivalent process (bin/local.ts's runtime: embedded table, file store, API
// server and the in-process workflow, with AWS's request limits) for local-memory.ts: prints its
// URL and demo key, then serves until killed. Its peak memory is read from outside
// (/proc/<pid>/status), so nothing the client does counts against it.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
process.env.CONTACT_POOL_INTERVAL_MS ??= '3600000';
const { startRuntime } = await import('../local/runtime');
const { AWS_LIMITS } = await import('../local/api-gateway-server');

const dataDir = process.argv[2]!;
const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: AWS_LIMITS.httpApiBodyBytes, maxPayloadBytes: AWS_LIMITS.lambdaPayloadBytes, seedDemo: true });
// Its own pid: tsx runs the script in a process of its own under the one spawned.
console.log(JSON.stringify({ url: runtime.url, apiKey: runtime.demo!.apiKey, pid: process.pid }));

export {};
