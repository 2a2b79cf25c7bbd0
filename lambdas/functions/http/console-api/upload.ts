import { operation, type BoundOperation } from '../../../api/operation';
import { uploadRoutes as routes } from '../../../console/upload-routes';
import { processingProgress } from '../../../console/upload-progress';
import { ownDraft } from '../../../console/web-drafts';
import { nowMs } from '../../../platform/clock';
import { ok } from '../../../platform/http/response';
import { toPublicUpload } from '../../../uploads/upload';
import { getUpload } from '../../../uploads/upload-repository';

// The console's page of one upload or draft, with processing's progress. Loaded at its first
// request (../console-api.ts).

export const operations = (): BoundOperation[] => [
  operation(routes.getUpload, async ({ member: p, params }) => {
    const upload = await getUpload(params.id);
    // While processing, how far it is (derived from its chunks: the record keeps no progress).
    if (upload && upload.organization_id === p.organizationId && upload.status !== 'charging') return ok({ upload: toPublicUpload(upload), progress: await processingProgress(upload, nowMs()) });
    return ok({ draft: await ownDraft(p, params.id) });
  }),
];
