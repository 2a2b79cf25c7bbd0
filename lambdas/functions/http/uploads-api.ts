import { apiHandler, parseJsonBody } from '../../api/api-handler';
import { NotFound, Removed, UnsupportedContentType } from '../../platform/domain-errors';
import { mediaType } from '../../platform/http/content-type';
import { operation } from '../../api/operation';
import { ok } from '../../platform/http/response';
import type * as z from '../../platform/zod';
import { createUpload, synthesizedFilename } from '../../uploads/create-upload';
import { parseJsonUpload, parseMultipartUpload, parseStagedJsonUpload, type JsonUploadBody } from '../../uploads/request';
import { uploadsRoutes as routes } from '../../uploads/routes';
import { createFromStagedOnce, usedStagedId, readStagedJson, stagedCsv, stageUpload } from '../../uploads/staging';
import { toPublicUpload, type UploadRecord } from '../../uploads/upload';
import { getUpload, listUploads } from '../../uploads/upload-repository';
import type { WorkflowPorts } from '../../uploads/workflow';
import { lazyModule } from '../../platform/aws/lazy-module';

// Download links (their signer, slices and the processed file's layout) load at the first one
// (docs/performance.md, "Lazy cold starts, third step"): a cold start that creates an upload carries none of it.
const downloads = lazyModule(() => import('../../uploads/downloads'));

async function ownUpload(orgId: string, id: string): Promise<UploadRecord> {
  const upload = await getUpload(id);
  // Another organization's upload is indistinguishable from a missing one.
  if (!upload || upload.organization_id !== orgId || upload.status === 'charging') throw new NotFound('Upload not found');
  return upload;
}

/** Whether a JSON create call carries or maps numbers itself (else only a staged JSON body can). */
const namesNumbers = (body: z.infer<typeof JsonUploadBody>): boolean =>
  body.phone_numbers !== undefined || body.contacts !== undefined || body.phone_column !== undefined || body.phone_columns !== undefined;

/** The uploads API over the ports of its runtime's composition root. */
export const uploadsApi = (ports: WorkflowPorts) =>
  apiHandler([
    operation(routes.create, async (ctx) => {
      const type = mediaType(ctx.headers['content-type']);
      let request;
      if (type === 'multipart/form-data') {
        request = await parseMultipartUpload(ctx.rawBody, ctx.headers['content-type']!);
      } else if (type === 'application/json') {
        const body = parseJsonBody(ctx.route, ctx) as z.infer<typeof JsonUploadBody>;
        // A staged id names a CSV or, staged with ?format=json, a JSON create body.
        const stagedJson = body.staged_upload_id ? await readStagedJson(ctx.principal.organizationId, body.staged_upload_id) : null;
        // A call that names no numbers of its own can only mean a staged JSON body: none is there
        // when its upload was made (the file is deleted then), and that reuse is a 409 as a CSV's is.
        if (body.staged_upload_id && !stagedJson && !namesNumbers(body)) {
          const used = await usedStagedId(ctx.principal.organizationId, body.staged_upload_id);
          if (used) throw used;
        }
        request = stagedJson ? parseStagedJsonUpload(body, stagedJson) : parseJsonUpload(body);
        // A staged CSV is read as a stream by create, once it holds the claim (original-csv.ts).
        if (request.stagedUploadId && !stagedJson) request.csv = stagedCsv(ctx.principal.organizationId, request.stagedUploadId);
      } else {
        throw new UnsupportedContentType(`Unsupported Content-Type '${type || 'none'}'; send multipart/form-data (CSV file) or application/json`);
      }
      const input = {
        csv: request.csv,
        // No submitted name (a staged file's name stays with the browser's form): the spec's synthesized one.
        filename: request.filename ?? synthesizedFilename(),
        mapping: request.mapping,
        tier: request.tier,
        skipMobileLookup: request.skipMobileLookup,
        source: 'api' as const,
      };
      const upload = request.stagedUploadId
        ? await createFromStagedOnce(ctx.principal.organizationId, request.stagedUploadId, (uploadId) => createUpload(ports, ctx.principal, input, uploadId))
        : await createUpload(ports, ctx.principal, input);
      return ok(toPublicUpload(upload));
    }),
    operation(routes.stage, async (ctx) => ok(await stageUpload(ctx.principal.organizationId, ctx.query?.format ?? 'csv'))),
    operation(routes.list, async (ctx) => {
      const page = await listUploads(ctx.principal.organizationId, ctx.query.limit, ctx.query.cursor);
      return ok({ data: page.data.map(toPublicUpload), next_cursor: page.nextCursor });
    }),
    operation(routes.get, async (ctx) => ok(toPublicUpload(await ownUpload(ctx.principal.organizationId, ctx.params.id)))),
    operation(routes.remove, async () => {
      throw new Removed('Deleting uploads was removed on 2026-08-10; uploads cannot be deleted or cancelled');
    }),
    operation(routes.downloadOriginal, async (ctx) => ok(await (await downloads()).originalLink(await ownUpload(ctx.principal.organizationId, ctx.params.id)))),
    operation(routes.downloadProcessed, async (ctx) => ok(await (await downloads()).processedLink(await ownUpload(ctx.principal.organizationId, ctx.params.id), (ctx.query ?? {}) as Parameters<Awaited<ReturnType<typeof downloads>>['processedLink']>[1]))),
    operation(routes.downloadProcessedFiltered, async (ctx) => ok(await (await downloads()).processedFilteredLink(await ownUpload(ctx.principal.organizationId, ctx.params.id)))),
  ]);
