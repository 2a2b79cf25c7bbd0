import * as z from '../platform/zod';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { ProcessedDownloadQuery } from '../uploads/routes';
import { UploadId } from './route-ids';
import { CONSOLE_ROUTE_TABLE as at } from './route-table';

const DownloadParams = z.lazySchema(() => z.object({
  id: z.builtSchema(UploadId).shape.id,
  kind: z.enum(['original', 'sent', 'processed'], { error: 'Unknown download' }),
}));

/** The download link's route with its request schemas (the API's query rules). */
export const downloadRoutes = {
  download: { ...at.download, request: { params: DownloadParams, query: ProcessedDownloadQuery } },
} satisfies Record<string, ConsoleRouteSpec>;
