import { describe, expect, it } from 'vitest';
import { CfnResource, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PhoneValidationStack } from '../../lib/service-stack';
import { testApp } from '../support/stack';
import { parseStageConfig, type StageConfig } from '../../lib/stage-config';
import { generateKeyPairSync } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/temp-dirs';

// Every cdk-nag acknowledgement is true to the resource it names: the finding it acknowledges is
// raised on that construct (or a resource under it) by the AwsSolutions pack. An acknowledgement
// left behind after the design changed (a grant narrowed, a wildcard removed) would silence a
// finding nothing raises today, and one that names another resource's finding would hide it
// there: both fail here. The nag test (foundation.test.ts) holds the other direction, 0
// unacknowledged findings.

interface Finding {
  resource: string;
  rule: string;
}

/** The AwsSolutions pack, noting every finding it raises, acknowledged or not (it asks only for raised ones). */
class RecordingChecks extends AwsSolutionsChecks {
  readonly raised: Finding[] = [];
  constructor(scope: IConstruct) {
    super(scope);
    const self = this as unknown as { isAcknowledged(resource: CfnResource, rule: string): boolean };
    const original = self.isAcknowledged.bind(this);
    self.isAcknowledged = (resource, rule) => {
      this.raised.push({ resource: resource.node.path, rule });
      return original(resource, rule);
    };
  }
}

/** Every acknowledgement recorded on the tree: the construct it is on and the rule id. */
function acknowledgements(root: IConstruct): Finding[] {
  const out: Finding[] = [];
  for (const node of root.node.findAll()) {
    for (const entry of node.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || !entry.data) continue;
      for (const id of Object.keys(entry.data as Record<string, string>)) out.push({ resource: node.node.path, rule: id.replace(/^annotation::/i, '') });
    }
  }
  return out;
}

function nagged(config?: StageConfig): { acknowledged: Finding[]; raised: Finding[] } {
  const app = testApp();
  const stack = new PhoneValidationStack(app, 'AckStack', { env: { account: '111111111111', region: 'us-east-1' }, config });
  const checks = new RecordingChecks(app);
  checks.validateScope(app);
  return { acknowledged: acknowledgements(stack).filter((a) => a.rule.startsWith('AwsSolutions-')), raised: checks.raised };
}

const stale = ({ acknowledged, raised }: ReturnType<typeof nagged>): string[] =>
  acknowledged
    .filter((a) => !raised.some((f) => f.rule === a.rule && (f.resource === a.resource || f.resource.startsWith(`${a.resource}/`))))
    .map((a) => `${a.resource}: ${a.rule}`);

/** A repository stage file as the operator would have it: its download signing key file made here. */
function stage(name: string): StageConfig {
  const raw = JSON.parse(readFileSync(join(process.cwd(), 'config', 'stages', `${name}.json`), 'utf8')) as Record<string, unknown>;
  if (raw.downloadsPublicKeyFile) {
    const file = join(tempDir('pvs-ack-'), 'public.pem');
    writeFileSync(file, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
    raw.downloadsPublicKeyFile = file;
  }
  return parseStageConfig(name, raw, process.cwd());
}

const STAGES = readdirSync(join(process.cwd(), 'config', 'stages')).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();

describe('cdk-nag acknowledgements', () => {
  it.each(STAGES)('each names a finding the pack raises on that resource (stage %s)', (name) => {
    const result = nagged(stage(name));
    expect(result.acknowledged.length).toBeGreaterThan(10);
    expect(stale(result)).toEqual([]);
  });

  it('fails on an acknowledgement of a finding that resource does not have', () => {
    const result = nagged();
    const fn = result.acknowledged.find((a) => a.rule === 'AwsSolutions-L1')!;
    // The files bucket's prefix grant named on a function that has no such grant.
    const wrong = { resource: fn.resource, rule: 'AwsSolutions-IAM5[Resource::<Nothing.Arn>/uploads/*]' };
    expect(stale({ ...result, acknowledged: [...result.acknowledged, wrong] })).toEqual([`${wrong.resource}: ${wrong.rule}`]);
  });
});
