import type { RouteSpec } from '../platform/http/route-spec';
import { platformRoutes } from '../platform/routes';
import { creditsRoutes } from '../credits/routes';
import { webhooksRoutes } from '../webhooks/routes';
import { spamRoutes } from '../spam/routes';
import { contactsV1Routes, contactsV2Routes } from '../contacts/routes';
import { uploadsRoutes } from '../uploads/routes';

/**
 * Every route of the public API. CDK adds one API Gateway route per entry (pointing at the entry's
 * function), the local server routes by it, and /openapi.json is generated from it.
 * Each feature contributes its own `routes.ts`; add it here.
 */
export const ROUTES: readonly RouteSpec[] = [...Object.values(platformRoutes), ...Object.values(creditsRoutes), ...Object.values(webhooksRoutes), ...Object.values(spamRoutes), ...Object.values(contactsV1Routes), ...Object.values(contactsV2Routes), ...Object.values(uploadsRoutes)];
