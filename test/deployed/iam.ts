import type { Template } from './assembly';
import type { CfnResolver } from './cfn';
import type { RecordedCall } from './aws-endpoint';

interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: unknown;
}

export interface Denied {
  fn: string;
  action: string;
  resource: string;
}

/** IAM's wildcard semantics: `*` any run of characters, `?` one; actions case-insensitive. */
const wildcard = (pattern: string, caseInsensitive: boolean): RegExp =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, caseInsensitive ? 'i' : '');

/** The statements of every policy attached to a function's role, resolved. */
export function roleStatements(template: Template, resolver: CfnResolver, fnLogicalId: string): Statement[] {
  const fn = template.Resources[fnLogicalId]!;
  const role = (fn.Properties as { Role: { 'Fn::GetAtt': [string, string] } }).Role['Fn::GetAtt'][0];
  const statements: Statement[] = [];
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    const props = resource.Properties as { Roles: { Ref: string }[]; PolicyDocument: { Statement: Statement[] } };
    if (!props.Roles.some((r) => r.Ref === role)) continue;
    statements.push(...(resolver.resolve(props.PolicyDocument.Statement) as Statement[]));
  }
  return statements;
}

const list = (v: string | string[]): string[] => (Array.isArray(v) ? v : [v]);

/** Whether `statements` allow `action` on `resource` (explicit Deny wins; conditions are not modelled). */
export function isAllowed(statements: Statement[], action: string, resource: string): boolean {
  const matches = (s: Statement) => list(s.Action).some((a) => wildcard(a, true).test(action)) && list(s.Resource).some((r) => wildcard(r, false).test(resource));
  if (statements.some((s) => s.Effect === 'Deny' && matches(s))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s));
}

/**
 * Each recorded call checked against its function's role policies. Returns the denied calls and,
 * per function, the actions and resources it used (what least privilege may grant).
 */
export function evaluateCalls(template: Template, resolver: CfnResolver, calls: RecordedCall[]): { denied: Denied[]; used: Map<string, Set<string>> } {
  const denied: Denied[] = [];
  const used = new Map<string, Set<string>>();
  const cache = new Map<string, Statement[]>();
  for (const call of calls) {
    const statements = cache.get(call.fn) ?? roleStatements(template, resolver, call.fn);
    cache.set(call.fn, statements);
    for (const resource of call.resources) {
      const seen = used.get(call.fn) ?? new Set<string>();
      seen.add(`${call.action} ${resource}`);
      used.set(call.fn, seen);
      if (!isAllowed(statements, call.action, resource) && !denied.some((d) => d.fn === call.fn && d.action === call.action && d.resource === resource)) {
        denied.push({ fn: call.fn, action: call.action, resource });
      }
    }
  }
  return { denied, used };
}
