import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PhoneValidationStack } from '../../lib/service-stack';

let cached: { stack: PhoneValidationStack; template: Template } | null = null;

/**
 * Synthesizes the stack once per test file. Bundling is skipped (`aws:cdk:bundling-stacks` empty):
 * template tests check resources and properties, not esbuild output.
 */
export function synthStack(): { stack: PhoneValidationStack; template: Template } {
  if (cached) return cached;
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new PhoneValidationStack(app, 'TestStack', { env: { account: '111111111111', region: 'us-east-1' } });
  const template = Template.fromStack(stack);
  cached = { stack, template };
  return cached;
}

const nagged = new Map<string, string[]>();

/**
 * Runs cdk-nag's AwsSolutions pack over a fresh synth with `context`; returns the error findings as
 * text. Once per context in a worker: five files ask about the default one.
 */
export function nagErrors(context: Record<string, unknown> = {}): string[] {
  const key = JSON.stringify(context);
  if (!nagged.has(key)) nagged.set(key, nagFindings(context));
  return [...nagged.get(key)!];
}

function nagFindings(context: Record<string, unknown>): string[] {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  new PhoneValidationStack(app, 'NagStack', { env: { account: '111111111111', region: 'us-east-1' } });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
    return [];
  } catch (error) {
    return String((error as Error).message)
      .split('\n')
      .filter((line) => /AwsSolutions-/.test(line));
  }
}
