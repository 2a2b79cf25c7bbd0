import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { PhoneValidationStack } from '../lib/service-stack';
import { loadStageConfig, refuseContextSettings, StageConfigError } from '../lib/stage-config';
import { ConsolePageMissingError } from '../lib/console-page';

// `npx cdk synth|deploy -c stage=NAME`: the stage's configuration is config/stages/NAME.json
// (default `dev`), validated here; a setting given as `-c` instead stops synth rather than being
// ignored. Synthesizes without AWS credentials (no lookups). cdk.json's `build` builds the console
// page (web/dist) first; without it synth stops. docs/deploy.md.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
try {
  // A `-c` setting the stack would take without a stage file (lib/stage-config.ts CONTEXT_SETTINGS) stops synth.
  refuseContextSettings(stage, (key) => app.node.tryGetContext(key));
  const config = loadStageConfig(stage, root);
  new PhoneValidationStack(app, config.stackName, {
    config,
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
} catch (error) {
  if (error instanceof StageConfigError) console.error(`Stage configuration: ${error.message}`);
  else if (error instanceof ConsolePageMissingError) console.error(error.message);
  else throw error;
  process.exit(1);
}
