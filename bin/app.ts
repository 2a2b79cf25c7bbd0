import { App } from 'aws-cdk-lib';
import { PhoneValidationStack } from '../lib/service-stack';

// `npx cdk synth` / `npx cdk deploy`: synthesizes without AWS credentials (no lookups).
const app = new App();
new PhoneValidationStack(app, app.node.tryGetContext('stackName') ?? 'PhoneValidation', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
