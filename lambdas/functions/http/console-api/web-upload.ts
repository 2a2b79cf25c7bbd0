import { operation, type BoundOperation } from '../../../api/operation';
import type { ConsolePorts } from '../../../composition/ports';
import { webUploadRoutes as routes } from '../../../console/web-upload-routes';
import { confirmWebUpload, mapWebUpload, reportLink, startWebUpload } from '../../../console/web-upload';
import { discardWebUpload } from '../../../console/web-upload-discard';
import { rereadWebUpload } from '../../../console/web-upload-format';
import { ok } from '../../../platform/http/response';
import { toPublicUpload } from '../../../uploads/upload';
import { deleteStaged, readStaged, stageUpload } from '../../../uploads/staging';

// The console's in-app upload flow (console/web-upload.ts): a draft from a file, its mapping and
// validation, its confirmation into the upload itself. Loaded at its first request (../console-api.ts).

export const operations = (ports: ConsolePorts): BoundOperation[] => [
  operation(routes.startUpload, async ({ member: p, query, rawBody }) => ok({ draft: await startWebUpload(p, query.filename ?? 'web_upload.csv', rawBody) })),
  // Files over what the HTTP API carries (10 MB; a Lambda event 6 MB) go from the browser straight to
  // the files bucket through the staging path's presigned POST (the API's own), then become a draft.
  operation(routes.stageUpload, async ({ member: p }) => ok(await stageUpload(p.organizationId))),
  operation(routes.startStagedUpload, async ({ member: p, body }) => {
    const draft = await startWebUpload(p, body.filename ?? 'web_upload.csv', await readStaged(p.organizationId, body.staged_upload_id));
    // The draft holds its own copy (and the bytes as sent, when converted): the staged file has no other use.
    await deleteStaged(p.organizationId, body.staged_upload_id);
    return ok({ draft });
  }),
  operation(routes.mapUpload, async ({ member: p, params, body: m }) =>
    ok({
      draft: await mapWebUpload(p, params.id, {
        phoneColumns: m.phone_columns,
        fullNameColumn: m.full_name_column ?? undefined,
        firstNameColumn: m.first_name_column ?? undefined,
        lastNameColumn: m.last_name_column ?? undefined,
      }),
    }),
  ),
  operation(routes.confirmUpload, async ({ member: p, params, body }) => {
    const m = body.expected_mapping;
    const mapping = m && { phoneColumns: m.phone_columns, fullNameColumn: m.full_name_column ?? undefined, firstNameColumn: m.first_name_column ?? undefined, lastNameColumn: m.last_name_column ?? undefined };
    return ok({ upload: toPublicUpload(await confirmWebUpload(ports, p, params.id, body.validation_tier, body.skip_mobile_lookup, body.expected_credits, mapping)) });
  }),
  operation(routes.discardUpload, async ({ member: p, params }) => ok(await discardWebUpload(p, params.id))),
  operation(routes.rereadUpload, async ({ member: p, params, body }) => ok({ draft: await rereadWebUpload(p, params.id, body) })),
  operation(routes.uploadReport, async ({ member: p, params }) => ok(await reportLink(p, params.id))),
];
