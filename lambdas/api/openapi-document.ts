import { buildOpenApi } from '../platform/openapi';
import { ROUTES } from './routes';
import { WEBHOOK_EVENTS } from './event-schemas';

/** The served document: every route of the API and every event it delivers. */
export const openApiDocument = (serverUrl?: string): Record<string, unknown> => buildOpenApi(ROUTES, serverUrl, WEBHOOK_EVENTS);
