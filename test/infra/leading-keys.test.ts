import { describe, expect, it } from 'vitest';
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { TableV2, AttributeType } from 'aws-cdk-lib/aws-dynamodb';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { synthStack, testApp } from '../support/stack';
import { grantTable } from '../../lib/grants';
import { INDEX_KEY_PATTERNS, keyPattern, TABLE_KEY_PATTERNS } from '../../lib/table-keys';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, string[]>> };

describe('table grants by partition (dynamodb:LeadingKeys)', () => {
  const { template, stack } = synthStack();
  const statements = (): Statement[] =>
    Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) => (p.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement);
  const tableId = Object.keys(template.findResources('AWS::DynamoDB::GlobalTable'))[0]!;
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };

  it('reads the partition patterns from the entity definitions: a family up to its first value, a constant whole', () => {
    expect(keyPattern('ORG#<org>#KEYS')).toBe('ORG#*');
    expect(keyPattern('BALANCES')).toBe('BALANCES');
    expect([...TABLE_KEY_PATTERNS]).toEqual(expect.arrayContaining(['ORG#*', 'APIKEY#*', 'LOOKUP#*', 'LOCAL#SEED']));
    // Index partitions are not the table's: nothing is stored under pk BALANCES or OUTBOX.
    expect(TABLE_KEY_PATTERNS.has('BALANCES')).toBe(false);
    expect([...INDEX_KEY_PATTERNS.gsi1]).toEqual(expect.arrayContaining(['BALANCES', 'ORG#*', 'USER#*', 'WEBHOOK#*']));
    expect([...INDEX_KEY_PATTERNS.gsi2]).toEqual(expect.arrayContaining(['UPLOAD#WATCH', 'DELIVERY#DUE', 'SPAMNUM#VERIFIED', 'APIKEYID#*']));
    expect([...INDEX_KEY_PATTERNS.gsi3]).toEqual(expect.arrayContaining(['OUTBOX', 'RECOVER#Contact', 'RECOVER#WebUploadDraft', 'CONTACTQ#*']));
  });

  it('conditions every DynamoDB statement on its partitions, on the table or one named index (no index/*)', () => {
    const dynamo = statements().filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    expect(dynamo.length).toBeGreaterThan(20);
    for (const s of dynamo) {
      expect(Object.keys(s.Condition ?? {}), JSON.stringify(s)).toEqual(['ForAllValues:StringLike']);
      expect(s.Condition!['ForAllValues:StringLike']!['dynamodb:LeadingKeys']!.length).toBeGreaterThan(0);
      expect([s.Action].flat()).not.toContain('dynamodb:Scan');
      const resource = JSON.stringify(s.Resource);
      expect(resource === JSON.stringify(tableArn) || /^\{"Fn::Join":\["",\[\{"Fn::GetAtt":\["[^"]+","Arn"\]\},"\/index\/gsi[123]"\]\]\}$/.test(resource), resource).toBe(true);
    }
  });

  it('gives the billing job its organizations and the balance list only', () => {
    const role = stack.resolve((stack.node.findChild('Billing').node.findChild('BillingPeriodJob') as LambdaFunction).role!.roleName) as unknown;
    const own = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify((p.Properties as { Roles: unknown }).Roles) === JSON.stringify([role]))
      .flatMap((p) => (p.Properties as { PolicyDocument: { Statement: Statement[] } }).PolicyDocument.Statement)
      .filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    const byResource = Object.fromEntries(own.map((s) => [JSON.stringify(s.Resource).includes('/index/') ? JSON.stringify(s.Resource).match(/gsi\d/)![0] : 'table', s.Condition!['ForAllValues:StringLike']!['dynamodb:LeadingKeys']]));
    expect(byResource).toEqual({ table: ['ORG#*'], gsi1: ['BALANCES', 'ORG#*'], gsi2: ['ORG#*'] });
  });

  it('refuses at synth a partition the table does not have', () => {
    const app = testApp();
    const s = new Stack(app, 'S');
    const table = new TableV2(s, 'T', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const fn = new LambdaFunction(s, 'F', { runtime: Runtime.NODEJS_22_X, handler: 'index.handler', code: Code.fromInline('export const handler = () => 1') });
    expect(() => grantTable(fn, table, { actions: ['GetItem'], keys: ['ORG#*', 'BALANCE#*'] })).toThrow(/BALANCE#\* is no partition-key pattern/);
    grantTable(fn, table, { actions: ['GetItem', 'PutItem'], keys: ['LOOKUP#*'] });
    // No Query: no index statement, whatever the patterns.
    const policy = Template.fromStack(s).toJSON().Resources as Record<string, { Type: string; Properties: { PolicyDocument: { Statement: Statement[] } } }>;
    const granted = Object.values(policy).filter((r) => r.Type === 'AWS::IAM::Policy').flatMap((r) => r.Properties.PolicyDocument.Statement);
    expect(granted).toEqual([{ Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [s.getLogicalId(table.node.defaultChild as CfnElement), 'Arn'] }, Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['LOOKUP#*'] } } }]);
  });
});
