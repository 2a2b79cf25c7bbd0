import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { developerRoutes as developer } from './developer-routes';
import { downloadRoutes as downloads } from './download-routes';
import { CONSOLE_ROUTE_TABLE as at, type ConsoleRouteName } from './route-table';
import { spamPanelRoutes as spam } from './spam-routes';
import { uploadRoutes as uploads } from './upload-routes';
import { webhookRoutes as webhooks } from './webhook-routes';
import { webUploadRoutes as webUpload } from './web-upload-routes';

// The console's API (/console/api/*), as route specs on the same HTTP stack as the public API:
// one validation layer, one error envelope, one logger and clock. Authority is the signed-in
// person (a verified OpenID Connect access token: `auth: 'console'`), never an API key; the
// console's own OpenAPI document is built from this list (/console/api/openapi.json). Each route is
// its entry of ./route-table.ts (method, path, summary, responses) with its request schemas, kept
// per panel (./*-routes.ts) so that a panel loaded at its first request (lambdas/functions/http/
// console-api.ts) builds its own schemas only.

export const consoleRoutes = {
  openapi: at.openapi,
  me: at.me,
  ...developer,
  ...webhooks,
  ...spam,
  credits: at.credits,
  listUploads: uploads.listUploads,
  discardUpload: webUpload.discardUpload,
  startUpload: webUpload.startUpload,
  stageUpload: webUpload.stageUpload,
  startStagedUpload: webUpload.startStagedUpload,
  getUpload: uploads.getUpload,
  mapUpload: webUpload.mapUpload,
  confirmUpload: webUpload.confirmUpload,
  rereadUpload: webUpload.rereadUpload,
  uploadReport: webUpload.uploadReport,
  download: downloads.download,
} satisfies Record<ConsoleRouteName, ConsoleRouteSpec>;

export const CONSOLE_ROUTES: ConsoleRouteSpec[] = Object.values(consoleRoutes);
