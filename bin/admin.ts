import { existsSync } from 'node:fs';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ensureTable, startEmbeddedDynamo } from '../local/embedded-dynamodb';
import { ensureBuckets, startEmbeddedS3 } from '../local/embedded-s3';
import { dataDirFromEnv, localStorage, localStoreSecret, LOCAL_RESOURCES } from '../local/environment';
import { acquireInstanceLock, InstanceLockedError, waitForServingInstance, type InstanceLock, type InstanceRecord } from '../local/instance-lock';
import { sharedOverrides } from '../local/instance-settings';
import { join } from 'node:path';
import { ADMIN_COMMANDS, AdminUsageError } from './admin-commands';
import { configureRoot } from '../lambdas/platform/config';
import { bindStorage } from '../lambdas/platform/storage';
import { sendLogsToStderr } from '../lambdas/platform/logger';
import { parseCommandArgs } from './admin-args';

// `npm run admin -- <command> [--flags]`: operator actions against the local store (the running
// `npm start` instance's table, or the data folder directly when it is not running) or a deployed
// stack's table (`--stack NAME` reads its TableName output; `--table NAME` names it directly).

const USAGE = `Usage: npm run admin -- <command> [options] [--table NAME | --stack NAME]

Commands:
${Object.entries(ADMIN_COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(18)} ${c.usage}`)
  .join('\n')}

Targets: by default the local data folder (DATA_DIR, default ./.data). --table NAME or --stack NAME
use a deployed table with your AWS credentials.`;

async function main(): Promise<number> {
  // stdout carries the command's JSON answer alone (`| node -pe 'JSON.parse(…)'`); every log line
  // of the code it runs (the billing job's, the spam run's) goes to stderr.
  sendLogsToStderr();
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const spec = ADMIN_COMMANDS[command];
  if (!spec) {
    console.error(`Unknown command '${command}'.\n\n${USAGE}`);
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseCommandArgs(rest, { ...spec.options, table: { type: 'string' }, stack: { type: 'string' } });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${command}: ${spec.usage}`);
    return 2;
  }
  let local: Connection;
  try {
    local = await connect(command, values.table as string | undefined, values.stack as string | undefined);
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  try {
    const result = await spec.run(values, { instance: local.instance, consoleUserPoolId: local.consoleUserPoolId });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof AdminUsageError || (error as Error).name === 'AdminError' || error instanceof Error) {
      console.error(`error: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  } finally {
    await local.close();
  }
}

interface Connection {
  /** The serving local instance the command runs beside, if any. */
  instance: InstanceRecord | null;
  /** The deployed stack's console user pool (--stack), for console-user. */
  consoleUserPoolId?: string;
  close(): Promise<void>;
}

const NOTHING_TO_CLOSE = async () => undefined;

// The CLI is a composition root too: what it targets joins the environment as its settings
// (configureRoot parses them once; the environment is never written), and a local target's storage
// is bound for the repositories the commands use.
async function connect(command: string, table: string | undefined, stack: string | undefined): Promise<Connection> {
  // A job a command runs may store files (run-contact-pool's uploads, spam-run's screenshots).
  const defaults: Record<string, string | undefined> = { FILES_BUCKET: LOCAL_RESOURCES.buckets.files, SCREENSHOTS_BUCKET: LOCAL_RESOURCES.buckets.screenshots };
  if (table || stack) {
    if (!stack) {
      configureRoot({ defaults, overrides: { TABLE_NAME: table } });
      return { instance: null, close: NOTHING_TO_CLOSE };
    }
    // The stack's outputs name what commands that start work need (run-contact-pool); the
    // environment's own values win, the table excepted.
    const outputs = await stackOutputs(stack);
    if (!outputs.TableName) throw new Error(`stack ${stack} has no TableName output`);
    configureRoot({
      defaults: {
        ...defaults,
        ...(outputs.FilesBucketName ? { FILES_BUCKET: outputs.FilesBucketName } : {}),
        UPLOAD_STATE_MACHINE_ARN: outputs.UploadStateMachineArn,
        WEBHOOK_QUEUE_URL: outputs.WebhookQueueUrl,
        DEPLOYMENT: 'aws',
      },
      overrides: { TABLE_NAME: outputs.TableName },
    });
    return { instance: null, consoleUserPoolId: process.env.CONSOLE_USER_POOL_ID || outputs.ConsoleUserPoolId, close: NOTHING_TO_CLOSE };
  }
  const dataDir = dataDirFromEnv();
  // A mistyped DATA_DIR (or none, in another folder) would otherwise become a new, empty service
  // that answers "no such organization", or takes a new one nobody serves.
  if (!existsSync(dataDir)) throw new Error(`the data folder ${dataDir} does not exist (DATA_DIR${process.env.DATA_DIR ? `=${process.env.DATA_DIR}` : ' is unset, so ./.data'}): set DATA_DIR to the folder \`npm start\` uses, or create it first to set up a new one`);
  defaults.TABLE_NAME = LOCAL_RESOURCES.table;
  // The embedded store checks signatures with the data folder's secret.
  const secret = localStoreSecret(dataDir);
  // An instance runs on this folder exactly when its lock is held (local/instance-lock.ts, the rule
  // `npm start` uses); it tells where its store is and the settings its jobs run with.
  let lock: InstanceLock | null = null;
  while (!lock) {
    const running = await waitForServingInstance(dataDir);
    // Another admin command works on the stopped folder: it holds it until it ends.
    if (running?.adminCommand) throw new Error(`${new InstanceLockedError(dataDir, running).message} Try again once it has finished.`);
    if (running?.state === 'starting') throw new Error(`the instance (pid ${running.pid}) on ${dataDir} is still starting; try again once it serves`);
    if (running) {
      // Jobs run as the instance's own would (WEBHOOKS_ALLOW_LOOPBACK and the like); secrets stay the shell's.
      if (!running.dynamoEndpoint || !running.s3Endpoint) throw new Error(`the instance (pid ${running.pid}) on ${dataDir} does not say where its stores are; restart it`);
      const shared = running.settings ?? {};
      configureRoot({ defaults, overrides: sharedOverrides(shared) });
      const release = bindStorage(localStorage({ dynamo: running.dynamoEndpoint, s3: running.s3Endpoint }, secret, shared.S3_LINK_ENDPOINT));
      return { instance: running, close: async () => release() };
    }
    // Not running: this command takes the folder's lock, as `npm start` does, for as long as it
    // uses the folder, so a start beside it is refused with what holds the folder (not LevelDB's
    // "Database failed to open"). A start that took the lock meanwhile is gone through, as above.
    try {
      lock = await acquireInstanceLock(dataDir, { adminCommand: command });
    } catch (error) {
      if (!(error instanceof InstanceLockedError)) throw error;
    }
  }
  // Open the data folder directly (LevelDB allows one process at a time), files too, so commands
  // that store objects (e.g. spam-run screenshots) work either way.
  const held = lock;
  let dynamo: Awaited<ReturnType<typeof startEmbeddedDynamo>> | null = null;
  let s3: Awaited<ReturnType<typeof startEmbeddedS3>> | null = null;
  let release = () => {};
  const close = async () => {
    release();
    await s3?.close();
    await dynamo?.close();
    await held.release();
  };
  try {
    const cfg = configureRoot({ defaults });
    dynamo = await startEmbeddedDynamo(join(dataDir, 'dynamodb'), { secret });
    s3 = await startEmbeddedS3(join(dataDir, 's3'), { secret });
    release = bindStorage(localStorage({ dynamo: dynamo.endpoint, s3: s3.endpoint }, secret, undefined, s3.agent));
    await ensureTable(dynamo.endpoint, cfg.TABLE_NAME!, secret);
    await ensureBuckets(s3.endpoint, [cfg.FILES_BUCKET!, cfg.SCREENSHOTS_BUCKET!], secret);
  } catch (error) {
    await close();
    throw error;
  }
  return { instance: null, close };
}

async function stackOutputs(stackName: string): Promise<Record<string, string>> {
  const cfn = new CloudFormationClient({});
  const out = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
  return Object.fromEntries((out.Stacks?.[0]?.Outputs ?? []).filter((o) => o.OutputKey && o.OutputValue).map((o) => [o.OutputKey!, o.OutputValue!]));
}

process.exitCode = await main();
