import { prepare } from '../../uploads/pipeline/prepare';

/** The upload workflow's Prepare step. */
export const handler = prepare;
