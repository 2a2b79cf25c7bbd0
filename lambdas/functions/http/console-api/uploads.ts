import { operation, type BoundOperation } from '../../../api/operation';
import { uploadRoutes as routes } from '../../../console/upload-routes';
import { matchesDraft, searchUploads } from '../../../console/upload-search';
import { openDrafts } from '../../../console/web-drafts';
import { ok } from '../../../platform/http/response';
import { toPublicUpload } from '../../../uploads/upload';
import { listUploads } from '../../../uploads/upload-repository';

// The console's uploads list: the page a person lands on, drafts and uploads. Loaded at its first
// request (../console-api.ts); an upload's page is ./upload.ts, the in-app upload flow ./web-upload.ts.

export const operations = (): BoundOperation[] => [
  operation(routes.listUploads, async ({ member: p, query }) => {
    const filter = { q: query.q, status: query.status };
    const page = await searchUploads(listUploads, p.organizationId, filter, query.cursor || undefined);
    // A list row per draft: its header, preview and invalid cells (up to 200 KB each) are read with the draft itself.
    const drafts = (await openDrafts(p)).filter((d) => matchesDraft(d, filter)).map(({ header: _h, preview: _p, invalid_cells: _i, suggested: _s, import: _f, ...row }) => row);
    return ok({ drafts, data: page.data.map(toPublicUpload), next_cursor: page.nextCursor, scanned: page.scanned });
  }),
];
