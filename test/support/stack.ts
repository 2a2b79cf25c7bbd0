import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PhoneValidationStack } from '../../lib/service-stack';
import type { StageConfig } from '../../lib/stage-config';
import { tempDir } from './temp-dirs';

/** The stand-in console page the template tests ship (the built web/dist is the browser tests' and cdk.json's). */
export const STAND_IN_PAGE = join(dirname(fileURLToPath(import.meta.url)), 'console-page');

/**
 * Context for a template-test synth: bundling skipped (`aws:cdk:bundling-stacks` empty; template
 * tests check resources and properties, not esbuild output) and the stand-in console page.
 */
export const TEMPLATE_CONTEXT = { 'aws:cdk:bundling-stacks': [] as string[], consolePageDir: STAND_IN_PAGE };

/**
 * An App for a template test: TEMPLATE_CONTEXT with `context` over it, its cloud assembly in a
 * folder removed when the test file ends (an App without an outdir leaves one in os.tmpdir()).
 */
export function testApp(context: Record<string, unknown> = {}): App {
  return new App({ outdir: tempDir('cdk-test-'), context: { ...TEMPLATE_CONTEXT, ...context } });
}

let cached: { stack: PhoneValidationStack; template: Template } | null = null;

/** Synthesizes the stack once per test file, with TEMPLATE_CONTEXT. */
export function synthStack(): { stack: PhoneValidationStack; template: Template } {
  if (cached) return cached;
  const app = testApp();
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

/** cdk-nag's AwsSolutions errors over a synth of one stage configuration (options only a stage file sets). */
export function nagErrorsFor(config: StageConfig): string[] {
  return nagFindings({}, config);
}

function nagFindings(context: Record<string, unknown>, config?: StageConfig): string[] {
  const app = testApp(context);
  new PhoneValidationStack(app, config?.stackName ?? 'NagStack', { env: { account: '111111111111', region: 'us-east-1' }, config });
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
