import { buildOpenApi, type OpenApiExamples } from '../platform/openapi';
import { ROUTES } from './routes';
import { WEBHOOK_EVENTS } from './event-schemas';
import recorded from './openapi-examples.json';

/** The served document: every route of the API and every event it delivers, with examples recorded from the suite. */
export const openApiDocument = (serverUrl?: string): Record<string, unknown> => buildOpenApi(ROUTES, serverUrl, WEBHOOK_EVENTS, undefined, recorded as OpenApiExamples);
