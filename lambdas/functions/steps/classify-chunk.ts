import { awsClassificationPorts } from '../../composition/aws-classification';
import { classifyChunk, type ClassifyChunkInput, type InvocationContext } from '../../uploads/pipeline/classify-chunk';

/** The upload workflow's ClassifyChunk step (one Map iteration), with the container's provider. */
export const handler = (input: ClassifyChunkInput, context?: InvocationContext) => classifyChunk(awsClassificationPorts(), input, context);
