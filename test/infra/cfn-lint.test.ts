import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PhoneValidationStack } from '../../lib/service-stack';
import { loadStageConfig } from '../../lib/stage-config';
import { repositoryStages } from '../support/stage-files';
import { testApp } from '../support/stack';
import { tempDir } from '../support/temp-dirs';

// Issue 28: cfn-lint reports 0 errors on every stage's template. cfn-lint (Python) is part of this
// machine's image, not of npm; where it is missing the test says so as a skip rather than passing.

interface Finding {
  Level: 'Error' | 'Warning' | 'Informational';
  Rule: { Id: string };
  Message: string;
  Location: { Path: (string | number)[] };
}

const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' });
const available = cfnLint.status === 0;

function lint(templates: string[]): Finding[] {
  // Exit status is a bit mask of the levels found; the JSON on stdout is what matters.
  const run = spawnSync('cfn-lint', ['--format', 'json', '--', ...templates], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.error) throw run.error;
  return JSON.parse(run.stdout || '[]') as Finding[];
}

function errors(findings: Finding[]): string[] {
  return findings.filter((f) => f.Level === 'Error').map((f) => `${f.Rule.Id} ${f.Location.Path.join('/')}: ${f.Message}`);
}

describe.skipIf(!available)(`${available ? cfnLint.stdout.trim() : 'cfn-lint (not installed)'} on every stage's template`, () => {
  const { root, stages } = repositoryStages();
  const out = tempDir('pvs-cfn-lint-');
  const app = testApp();
  // Every stack in the one app before any synth, as `cdk synth` builds them.
  const stacks = stages.map((stage) => {
    const config = loadStageConfig(stage, root);
    return new PhoneValidationStack(app, config.stackName, { config, env: { account: '111111111111', region: 'us-east-1' } });
  });
  const files = stacks.map((stack) => {
    const file = join(out, `${stack.stackName}.template.json`);
    writeFileSync(file, JSON.stringify(Template.fromStack(stack).toJSON()));
    return file;
  });

  it('lints the repository\'s stage files with 0 errors', () => {
    expect(stages).toEqual(expect.arrayContaining(['dev', 'example-prod']));
    expect(errors(lint(files))).toEqual([]);
  });

  it('the check fails on a template cfn-lint must refuse (a bucket with an unknown property, an alarm without a metric)', () => {
    const bad = join(out, 'bad.template.json');
    writeFileSync(bad, JSON.stringify({
      Resources: {
        Files: { Type: 'AWS::S3::Bucket', Properties: { BucketNam: 'typo' } },
        Alarm: { Type: 'AWS::CloudWatch::Alarm', Properties: { ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1, Threshold: 1 } },
      },
    }));
    const found = errors(lint([bad]));
    expect(found.some((e) => e.startsWith('E3002 Resources/Files/Properties'))).toBe(true);
    expect(found.length).toBeGreaterThanOrEqual(2);
  });
});
