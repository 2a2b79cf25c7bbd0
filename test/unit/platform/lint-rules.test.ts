import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// The layers the linter holds (eslint.config.js): each deliberate violation below must fail lint,
// and the same file without it must pass.

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('import rules held by the linter', () => {
  it('lambdas/ never imports local/', async () => {
    expect(await problems('lambdas/uploads/violation.ts', "import { startRuntime } from '../../local/runtime';\nexport const x = startRuntime;\n")).toEqual([
      expect.stringMatching(/no-restricted-imports: .*local stand-ins live in local/),
    ]);
  });

  it('no process.env outside the configuration module', async () => {
    expect(await problems('lambdas/contacts/violation.ts', 'export const table = process.env.TABLE_NAME;\n')).toEqual([expect.stringMatching(/no-restricted-properties: .*config\.ts/)]);
    expect(await problems('lambdas/platform/config.ts', 'export const table = process.env.TABLE_NAME;\n')).toEqual([]);
  });

  it('the shared platform imports no feature', async () => {
    expect(await problems('lambdas/platform/violation.ts', "import { createUpload } from '../uploads/create-upload';\nexport const x = createUpload;\n")).toEqual([
      expect.stringMatching(/The platform must not depend on a feature/),
    ]);
    expect(await problems('lambdas/platform/violation.ts', "import type { Principal } from '../auth/authenticate';\nexport type X = Principal;\n")).toEqual([]);
  });

  it('uploads never imports contacts; contacts use uploads only through uploads/pool', async () => {
    expect(await problems('lambdas/uploads/pipeline/violation.ts', "import { handlePoolUploadFinished } from '../../contacts/pool-results';\nexport const x = handlePoolUploadFinished;\n")).toEqual([
      expect.stringMatching(/Uploads never calls contacts/),
      expect.stringMatching(/'contacts\/pool-results' is internal to contacts/),
    ]);
    expect(await problems('lambdas/contacts/violation.ts', "import { transitionUpload } from '../uploads/upload-repository';\nexport const x = transitionUpload;\n")).toEqual([
      expect.stringMatching(/only through uploads\/pool\.ts/),
    ]);
    expect(await problems('lambdas/contacts/violation.ts', "import { createPoolUpload } from '../uploads/pool';\nexport const x = createPoolUpload;\n")).toEqual([]);
    // The general rules still hold there.
    expect(await problems('lambdas/contacts/violation.ts', "import { startRuntime } from '../../local/runtime';\nexport const x = startRuntime;\n")).toEqual([expect.stringMatching(/local stand-ins live in local/)]);
  });

  it('only the HTTP layer imports the HTTP error module; the rest throws domain errors', async () => {
    const httpError = "import { HttpError } from '../platform/errors';\nexport const x = new HttpError(400, 'no');\n";
    expect(await problems('lambdas/uploads/violation.ts', httpError)).toEqual([expect.stringMatching(/no-restricted-imports: .*Only the HTTP layer builds HTTP errors/)]);
    expect(await problems('lambdas/platform/violation.ts', "import { HttpError } from './errors';\nexport const x = HttpError;\n")).toEqual([expect.stringMatching(/Only the HTTP layer/)]);
    expect(await problems('lambdas/api/violation.ts', httpError)).toEqual([]);
    expect(await problems('lambdas/uploads/violation.ts', "import { InvalidInput } from '../platform/domain-errors';\nexport const x = new InvalidInput('no');\n")).toEqual([]);
  });

  it('zod comes only through lambdas/platform/zod.ts (zod/mini with English messages)', async () => {
    const message = /no-restricted-syntax: Import zod through lambdas\/platform\/zod\.ts/;
    expect(await problems('lambdas/credits/violation.ts', "import * as z from 'zod';\nexport const x = z.string();\n")).toEqual([expect.stringMatching(message)]);
    expect(await problems('lambdas/credits/violation.ts', "import * as z from 'zod/mini';\nexport const x = z.string();\n")).toEqual([expect.stringMatching(message)]);
    expect(await problems('lambdas/credits/violation.ts', "import type { ZodMiniType } from 'zod/mini';\nexport type X = ZodMiniType;\n")).toEqual([expect.stringMatching(message)]);
    expect(await problems('lambdas/credits/violation.ts', "import * as z from '../platform/zod';\nexport const x = z.string();\n")).toEqual([]);
    expect(await problems('lambdas/platform/zod.ts', "export * from 'zod/mini';\n")).toEqual([]);
  });

  it("a feature's rules import no AWS SDK, no Lambda types and no storage", async () => {
    expect(await problems('lambdas/credits/balance-rules.ts', "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const x = DynamoDBClient;\n")).toEqual([expect.stringMatching(/plain function: no AWS SDK/)]);
    expect(await problems('lambdas/uploads/plan.ts', "import type { APIGatewayProxyEventV2 } from 'aws-lambda';\nexport type X = APIGatewayProxyEventV2;\n")).toEqual([expect.stringMatching(/no Lambda types/)]);
    expect(await problems('lambdas/contacts/contact.ts', "import { getContact } from './contact-repository';\nexport const x = getContact;\n")).toEqual([expect.stringMatching(/does not touch storage/)]);
    expect(await problems('lambdas/contacts/contact.ts', 'export const price = (n: number) => Math.ceil(n * 1.5);\n')).toEqual([]);
  });

  it("a feature uses another only through that feature's public modules", async () => {
    const internal = "import { insertLedgerEntry } from '../credits/ledger-repository';\nexport const x = insertLedgerEntry;\n";
    expect(await problems('lambdas/webhooks/violation.ts', internal)).toEqual([expect.stringMatching(/project\/feature-boundaries: 'credits\/ledger-repository' is internal to credits: use one of its public modules \(credits, charge-before-write, routes\)/)]);
    expect(await problems('lambdas/webhooks/violation.ts', "export { createUpload } from '../uploads/pipeline/classify-chunk';\n")).toEqual([expect.stringMatching(/'uploads\/pipeline\/classify-chunk' is internal to uploads/)]);
    expect(await problems('lambdas/webhooks/violation.ts', "export const load = () => import('../spam/work-queue');\n")).toEqual([expect.stringMatching(/'spam\/work-queue' is internal to spam/)]);
    expect(await problems('lambdas/recovery/violation.ts', "import { reconcileUploads } from '../uploads/reconcile';\nexport const x = reconcileUploads;\n")).toEqual([]);
    expect(await problems('lambdas/webhooks/violation.ts', "import { sign } from './signature';\nexport const x = sign;\n")).toEqual([]);
    expect(await problems('lambdas/composition/violation.ts', "import { queueWorkItems } from '../spam/work-queue';\nexport const x = queueWorkItems;\n")).toEqual([]);
    expect(await problems('lambdas/functions/jobs/violation.ts', "import { queueWorkItems } from '../../spam/work-queue';\nexport const x = queueWorkItems;\n")).toEqual([]);
  });

  it('entries are a tier: only lambdas/functions/ wires a composition root or the HTTP stack, and nothing in lambdas/ imports an entry', async () => {
    const wiring = "import { awsDeliveryPorts } from '../composition/aws';\nexport const x = awsDeliveryPorts;\n";
    expect(await problems('lambdas/webhooks/violation.ts', wiring)).toEqual([expect.stringMatching(/no-restricted-imports: .*Only an entry \(lambdas\/functions\/\) wires a composition root/)]);
    expect(await problems('lambdas/webhooks/violation.ts', "import type { Ports } from '../composition/ports';\nexport type X = Ports;\n")).toEqual([]);
    expect(await problems('lambdas/functions/jobs/violation.ts', "import { awsDeliveryPorts } from '../../composition/aws';\nexport const x = awsDeliveryPorts;\n")).toEqual([]);
    const stack = "import { apiHandler } from '../api/api-handler';\nexport const x = apiHandler;\n";
    expect(await problems('lambdas/uploads/violation.ts', stack)).toEqual([expect.stringMatching(/Only an entry \(lambdas\/functions\/http\/\) mounts operations/)]);
    expect(await problems('lambdas/functions/http/violation.ts', "import { apiHandler } from '../../api/api-handler';\nexport const x = apiHandler;\n")).toEqual([]);
    const entry = "import { handler } from '../functions/http/credits';\nexport const x = handler;\n";
    expect(await problems('lambdas/credits/violation.ts', entry)).toEqual([expect.stringMatching(/Nothing in lambdas\/ imports an entry/)]);
    expect(await problems('lambdas/composition/violation.ts', entry)).toEqual([expect.stringMatching(/Nothing in lambdas\/ imports an entry/)]);
    expect(await problems('lambdas/platform/http/violation.ts', "import { handler } from '../../functions/http/credits';\nexport const x = handler;\n")).toEqual([expect.stringMatching(/The platform must not depend on a feature/)]);
  });
});
