import { classifyChunk } from '../../uploads/pipeline/classify-chunk';

/** The upload workflow's ClassifyChunk step (one Map iteration). */
export const handler = classifyChunk;
