import { copyFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '../../../lambdas/platform/config';
import { useTestService } from '../../support/runtime';
import { waitFor } from '../../support/wait';
import { startReceiver, type Receiver } from '../webhooks/receiver';

// Issue 32's bar for the document: a client generated from the served /openapi.json with
// openapi-typescript compiles a script of every main flow (test/generated-client/flows.ts) under
// strict TypeScript with no cast, and that script works against the service.

process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
reloadConfig();

const ROOT = resolve(import.meta.dirname, '../../..');
const FLOWS = join(ROOT, 'test/generated-client/flows.ts');
const service = useTestService();
let receiver: Receiver;
// Beside the repository's node_modules, so the copy resolves openapi-fetch as an integrator's would.
const dir = join(ROOT, '.test-cache', `generated-client-${process.pid}`);

beforeAll(async () => {
  receiver = await startReceiver();
  const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
  // The multipart file is `format: binary`: typed as a Blob, the documented openapi-typescript option for it.
  const blob = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
  const ast = await openapiTS(doc, { transform: (schema) => ((schema as { format?: unknown }).format === 'binary' ? blob : undefined) });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.next.d.ts'), astToString(ast));
  renameSync(join(dir, 'schema.next.d.ts'), join(dir, 'schema.d.ts'));
  copyFileSync(FLOWS, join(dir, 'flows.ts'));
});
afterAll(async () => {
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

type RunFlows = (
  input: { baseUrl: string; apiKey: string; webhookUrl: string },
  waitUntil: (what: string, done: () => Promise<boolean>) => Promise<void>,
) => Promise<Record<string, unknown> & { balance: number; processedUrl: string; stagedUrl: string }>;

describe('a client generated from /openapi.json', () => {
  it('compiles the flows script under strict TypeScript', () => {
    const program = ts.createProgram([join(dir, 'flows.ts')], {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });

  it('has no cast in it (no `as` but `as const`, no `<T>x`, no `!`)', () => {
    const source = ts.createSourceFile('flows.ts', ts.sys.readFile(FLOWS)!, ts.ScriptTarget.ES2022, true);
    const casts: string[] = [];
    const visit = (node: ts.Node) => {
      const isConst = ts.isAsExpression(node) && ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
      if ((ts.isAsExpression(node) && !isConst) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) casts.push(node.getText(source));
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(casts).toEqual([]);
  });

  it('runs every flow against the service', async () => {
    // By path: a literal import would pull the script, and its generated `./schema`, into the project's typecheck.
    const { runFlows } = (await import(FLOWS)) as { runFlows: RunFlows };
    const result = await runFlows({ baseUrl: service.url, apiKey: service.apiKey, webhookUrl: receiver.url }, (what, done) =>
      waitFor(what, async () => ((await done()) ? true : null)).then(() => undefined),
    );
    expect(result).toMatchObject({ contactReplayed: true, uploadStatus: 'completed', unauthorized: expect.stringContaining('API key') });
    expect(result.balance).toBeGreaterThan(0);
    expect(result.processedUrl).toMatch(/^https?:\/\//);
    expect(result.stagedUrl).toMatch(/^https?:\/\//);
  });
});
