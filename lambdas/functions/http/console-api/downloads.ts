import { operation, type BoundOperation } from '../../../api/operation';
import { processedFilename } from '../../../console/download-name';
import type { ConsolePrincipal } from '../../../console/principal';
import { downloadRoutes as routes } from '../../../console/download-routes';
import { NotFound } from '../../../platform/domain-errors';
import { ok } from '../../../platform/http/response';
import { originalLink, processedLink, storedFileLink, type DownloadLink } from '../../../uploads/downloads';
import { getDraft, type WebDraft } from '../../../console/web-upload-repository';
import { sourceKey } from '../../../console/web-upload';
import type { UploadRecord } from '../../../uploads/upload';
import { getUpload } from '../../../uploads/upload-repository';

// The console's download links (the original file, the processed file or a slice of it, under
// the API's query rules). Loaded at its first request (../console-api.ts).

async function ownUpload(p: ConsolePrincipal, id: string): Promise<UploadRecord> {
  const upload = await getUpload(id);
  if (!upload || upload.organization_id !== p.organizationId || upload.status === 'charging') throw new NotFound('Upload not found');
  return upload;
}

/** The draft a console upload came from, when the console converted the file sent (else null). */
async function convertedDraft(upload: UploadRecord): Promise<WebDraft | null> {
  const draft = upload.source === 'web' ? await getDraft(upload.id) : null;
  return draft && draft.organization_id === upload.organization_id && draft.import?.converted ? draft : null;
}

/** The converted CSV's name beside the file as sent (calls.xlsx, or a Windows-1252 calls.csv): never the same name. */
const convertedName = (sent: string): string => `${sent.replace(/\.[^./\\]{1,10}$/, '')}_converted.csv`;

/** The bytes the person sent, kept beside the original when the console converted them; else the original is what was sent. */
async function sentLink(upload: UploadRecord): Promise<DownloadLink> {
  const draft = await convertedDraft(upload);
  return draft ? storedFileLink(upload, sourceKey(draft), draft.filename) : originalLink(upload);
}

export const operations = (): BoundOperation[] => [
  operation(routes.download, async ({ member: p, params, query }) => {
    const upload = await ownUpload(p, params.id);
    if (params.kind === 'sent') return ok(await sentLink(upload));
    if (params.kind === 'original') return ok(await originalLink(upload, (await convertedDraft(upload)) ? convertedName(upload.original_filename) : undefined));
    return ok(await processedLink(upload, query, processedFilename(upload.original_filename, query)));
  }),
];
