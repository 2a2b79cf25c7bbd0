import { config } from '../../platform/config';

/** How long an upload may stay `processing` before recovery takes it for interrupted (prepare sets it, recovery renews it on a local restart). */
export const processingBoundMs = (): number => config().UPLOAD_PROCESSING_BOUND_MS;
