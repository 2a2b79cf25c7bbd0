import { operation, type BoundOperation } from '../../../api/operation';
import { uploadRoutes as routes } from '../../../console/upload-routes';
import { processingProgress } from '../../../console/upload-progress';
import { ownDraft } from '../../../console/web-drafts';
import { nowMs } from '../../../platform/clock';
import { ok } from '../../../platform/http/response';
import { toPublicUpload, type UploadRecord } from '../../../uploads/upload';
import { getDraft } from '../../../console/web-upload-repository';
import { getUpload } from '../../../uploads/upload-repository';

// The console's page of one upload or draft, with processing's progress. Loaded at its first
// request (../console-api.ts).

/**
 * What the person sent, for a console upload the console converted (an Excel workbook, another
 * delimiter or encoding): its name and how it was read, so the page can offer it beside the CSV
 * that was processed (`download/sent`). Null otherwise: the original is what was sent.
 */
async function sentFile(upload: UploadRecord): Promise<{ filename: string; workbook_sheet: string | null; encoding: string; delimiter: string } | null> {
  if (upload.source !== 'web') return null;
  const draft = await getDraft(upload.id);
  const read = draft?.organization_id === upload.organization_id ? draft.import : undefined;
  if (!read?.converted) return null;
  return { filename: draft!.filename, workbook_sheet: read.workbook?.sheet ?? null, encoding: read.encoding, delimiter: read.delimiter };
}

export const operations = (): BoundOperation[] => [
  operation(routes.getUpload, async ({ member: p, params }) => {
    const upload = await getUpload(params.id);
    // While processing, how far it is (derived from its chunks: the record keeps no progress).
    if (upload && upload.organization_id === p.organizationId && upload.status !== 'charging') {
      return ok({ upload: toPublicUpload(upload), progress: await processingProgress(upload, nowMs()), sent: await sentFile(upload) });
    }
    return ok({ draft: await ownDraft(p, params.id) });
  }),
];
