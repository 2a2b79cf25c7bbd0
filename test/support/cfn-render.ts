/** A stack's pseudo-parameters, as CloudFormation would fill them in at deploy. */
export interface Pseudo {
  account: string;
  region: string;
  stackName: string;
  /** The uuid of AWS::StackId (`arn:aws:cloudformation:<region>:<account>:stack/<name>/<uuid>`). */
  stackUuid: string;
}

export const TEST_STACK_UUID = '51af3dc0-da77-11e4-872e-1234567db123';

/**
 * A template value as the string CloudFormation would make of it: pseudo-parameters filled in,
 * Fn::Join, Fn::Select and Fn::Split evaluated, other references as `<LogicalId>` or
 * `<LogicalId.Attribute>` (resources of one stack; prefix them to tell stacks apart).
 */
export function renderCfn(value: unknown, pseudo: Pseudo, refPrefix = ''): unknown {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((v) => renderCfn(v, pseudo, refPrefix));
  const v = value as Record<string, unknown>;
  if ('Fn::Join' in v) {
    const [sep, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => String(renderCfn(p, pseudo, refPrefix))).join(sep);
  }
  if ('Fn::Split' in v) {
    const [sep, source] = v['Fn::Split'] as [string, unknown];
    return String(renderCfn(source, pseudo, refPrefix)).split(sep);
  }
  if ('Fn::Select' in v) {
    const [index, list] = v['Fn::Select'] as [number | string, unknown];
    return (renderCfn(list, pseudo, refPrefix) as unknown[])[Number(index)];
  }
  if ('Ref' in v) {
    const pseudos: Record<string, string> = {
      'AWS::AccountId': pseudo.account,
      'AWS::Region': pseudo.region,
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::Partition': 'aws',
      'AWS::StackName': pseudo.stackName,
      'AWS::StackId': `arn:aws:cloudformation:${pseudo.region}:${pseudo.account}:stack/${pseudo.stackName}/${pseudo.stackUuid}`,
    };
    return pseudos[v.Ref as string] ?? `<${refPrefix}${String(v.Ref)}>`;
  }
  if ('Fn::GetAtt' in v) return `<${refPrefix}${[v['Fn::GetAtt']].flat().join('.')}>`;
  throw new Error(`cannot render ${JSON.stringify(value)}`);
}
