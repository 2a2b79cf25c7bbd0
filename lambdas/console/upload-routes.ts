import * as z from '../platform/zod';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { UploadId } from './route-ids';
import { CONSOLE_ROUTE_TABLE as at } from './route-table';

/** The uploads list's and an upload's page's routes with their request schemas. */
export const uploadRoutes = {
  listUploads: {
    ...at.listUploads,
    request: {
      query: z.lazySchema(() => z.object({
        cursor: z.optional(z.string().check(z.maxLength(4096))),
        q: z.optional(z.string().check(z.maxLength(255))),
        status: z.optional(z.enum(['ready_for_processing', 'processing', 'completed', 'failed', 'cancelled'])),
      })),
    },
  },
  getUpload: { ...at.getUpload, request: { params: UploadId } },
} satisfies Record<string, ConsoleRouteSpec>;
