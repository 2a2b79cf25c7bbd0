// Step Functions StartExecution only, loaded on first use (lambdas/uploads/sfn-workflow-starter.ts).
export { ExecutionAlreadyExists, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
