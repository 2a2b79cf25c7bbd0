import { App } from 'aws-cdk-lib';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { PhoneValidationStack } from '../../lib/service-stack';
import { PROJECT_ROOT } from '../../lib/service-function';

/** A CloudFormation value as it appears in the template: a literal or an intrinsic. */
export type CfnValue = string | number | boolean | { [key: string]: unknown } | CfnValue[];

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

export interface Template {
  Resources: Record<string, CfnResource>;
}

/** One deployed function as the template describes it. */
export interface DeployedFunction {
  logicalId: string;
  /** `index.handler`: module file stem and export. */
  handler: string;
  /** The synthesized asset folder in cdk.out (the zip's contents). */
  assetDir: string;
  environment: Record<string, CfnValue>;
  /** Logical id of its execution role. */
  roleLogicalId: string;
  timeoutSeconds: number;
}

export interface DeployedAssembly {
  dir: string;
  template: Template;
  functions: DeployedFunction[];
}

export const STACK_NAME = 'Deployed';
export const ACCOUNT = '111111111111';
export const REGION = 'us-east-1';

// What the synthesized output depends on: a change to any of these means a fresh synth (tools/:
// each function's asset build, tools/build-function.mjs).
const INPUTS = ['lib', 'lambdas', 'statemachines', 'tools', 'bin/app.ts', 'cdk.json', 'package-lock.json', 'test/support/console-page'];

function inputsHash(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    hash.update(relative(PROJECT_ROOT, path));
    hash.update(readFileSync(path));
  };
  for (const input of INPUTS) visit(join(PROJECT_ROOT, input));
  return hash.digest('hex').slice(0, 16);
}

/**
 * How long a file's setup may wait for the synthesis: the first caller runs it (about 45 s alone
 * on an idle 2-core machine, bundling every function, 3 minutes before the asset build was made
 * faster; beside a second copy of the suite it once took over 5, when a 300 s bound failed two
 * files), the others wait on its lock. Only a backstop: a
 * dead synthesizer's lock is taken over after 10 minutes.
 */
export const SYNTH_WAIT_MS = 1_500_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Inside the checkout (with the tests' screenshots), not the system temp folder: two checkouts on
// one machine then never read each other's bundles, and a fresh clone synthesizes. Not under
// node_modules: a map's sources are paths relative to it, and tools/trim-source-map.mjs tells a
// dependency by the node_modules in its path, which a path from inside node_modules lacks.
const CACHE = join(PROJECT_ROOT, '.test-cache', 'deployed-synth');

/**
 * The stack synthesized with real bundling (esbuild from node_modules, no Docker), once per change
 * of its inputs: test files and workers share one folder per hash of the inputs. A lock folder
 * makes concurrent callers wait for the first one's synth instead of repeating it.
 */
export async function deployedAssembly(): Promise<DeployedAssembly> {
  mkdirSync(CACHE, { recursive: true });
  const dir = join(CACHE, inputsHash());
  const done = join(dir, 'ready.json');
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(done)) return readAssembly(dir);
    try {
      mkdirSync(lock);
    } catch {
      // Another process is synthesizing; a lock older than 10 minutes belongs to a dead one.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 600_000) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    try {
      if (!existsSync(done)) synthInto(dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function synthInto(dir: string): void {
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const cdkJson = JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  // The stand-in console page (test/support/console-page): the walk serves the API, not the page.
  const app = new App({ outdir: staging, context: { ...cdkJson.context, consolePageDir: join(PROJECT_ROOT, 'test', 'support', 'console-page') } });
  // Bundling runs as each function's asset is staged, in the stack's constructor.
  new PhoneValidationStack(app, STACK_NAME, { env: { account: ACCOUNT, region: REGION } });
  app.synth();
  writeFileSync(join(staging, 'ready.json'), JSON.stringify({ synthesizedAt: new Date().toISOString() }));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  // Syntheses of earlier sources (other hashes) are not used again once an hour old.
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (!/^[0-9a-f]{16}$/.test(name) || path === dir) continue;
    if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The modules a function can load: its entry, then every file of its asset named by a static import
 * or an `import()` in a module already reached (lib/bundle-options.ts: code splitting puts the
 * clients a request path rarely uses in chunks of their own). esbuild also writes a chunk for an
 * `import()` whose code it then drops as unused; no module names that chunk, and it is left out.
 */
export function assetModules(fn: DeployedFunction): string[] {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+\.mjs)"/g)) visit(join(dirname(file), specifier!));
  };
  visit(join(fn.assetDir, `${fn.handler.split('.')[0]}.mjs`));
  return [...reached].sort();
}

/** The code a function can load (entry and reachable chunks), for what it can call. */
export function assetCode(fn: DeployedFunction): string {
  return assetModules(fn)
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
}

function readAssembly(dir: string): DeployedAssembly {
  const template = JSON.parse(readFileSync(join(dir, `${STACK_NAME}.template.json`), 'utf8')) as Template;
  const functions: DeployedFunction[] = [];
  for (const [logicalId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    // The asset's hash names both the zip in the template and its folder in the assembly. Only
    // the service's own bundles have an index.mjs; CDK's framework functions are not ours.
    const assetHash = /([0-9a-f]{64})\.zip/.exec(JSON.stringify(resource.Properties?.Code ?? {}))?.[1];
    const assetPath = `asset.${assetHash}`;
    if (!assetHash || !existsSync(join(dir, assetPath, 'index.mjs'))) continue;
    const props = resource.Properties as {
      Handler: string;
      Environment?: { Variables?: Record<string, CfnValue> };
      Role: { 'Fn::GetAtt': [string, string] };
      Timeout?: number;
    };
    functions.push({
      logicalId,
      handler: props.Handler,
      assetDir: join(dir, assetPath),
      environment: props.Environment?.Variables ?? {},
      roleLogicalId: props.Role['Fn::GetAtt'][0],
      timeoutSeconds: props.Timeout ?? 3,
    });
  }
  return { dir, template, functions };
}
