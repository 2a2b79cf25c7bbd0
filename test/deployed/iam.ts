import type { Template } from './assembly';
import type { CfnResolver } from './cfn';
import type { RecordedCall } from './aws-endpoint';

interface Statement {
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface Denied {
  fn: string;
  action: string;
  resource: string;
  /** The request's partition keys, for a DynamoDB call. */
  leadingKeys?: string[];
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

/** What a request carries for IAM's condition keys (only those the service's policies use). */
export interface RequestContext {
  /** dynamodb:LeadingKeys: the partition-key values of the request (a Query on an index: the index's). */
  leadingKeys?: string[];
}

/**
 * Whether a statement's Condition holds. Only the operator the service's grants use is modelled,
 * `ForAllValues:StringLike` on `dynamodb:LeadingKeys` (every value must match some pattern; an
 * empty or absent set matches, as in IAM); any other condition counts as not holding, so an
 * unmodelled grant is never taken to allow a call.
 */
export function conditionHolds(condition: Statement['Condition'], context: RequestContext): boolean {
  if (!condition) return true;
  return Object.entries(condition).every(([operator, keys]) =>
    Object.entries(keys).every(([key, patterns]) => {
      if (operator !== 'ForAllValues:StringLike' || key !== 'dynamodb:LeadingKeys') return false;
      return (context.leadingKeys ?? []).every((value) => list(patterns).some((p) => wildcard(p, false).test(value)));
    }),
  );
}

/** Whether `statements` allow `action` on `resource` for a request with `context` (explicit Deny wins). */
export function isAllowed(statements: Statement[], action: string, resource: string, context: RequestContext = {}): boolean {
  const matches = (s: Statement) => list(s.Action).some((a) => wildcard(a, true).test(action)) && list(s.Resource).some((r) => wildcard(r, false).test(resource));
  if (statements.some((s) => s.Effect === 'Deny' && matches(s) && conditionHolds(s.Condition, context))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s) && conditionHolds(s.Condition, context));
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
      seen.add(`${call.action} ${resource}${call.leadingKeys ? ` ${call.leadingKeys.join(',')}` : ''}`);
      used.set(call.fn, seen);
      if (isAllowed(statements, call.action, resource, { leadingKeys: call.leadingKeys })) continue;
      const same = (d: Denied) => d.fn === call.fn && d.action === call.action && d.resource === resource && String(d.leadingKeys) === String(call.leadingKeys);
      if (!denied.some(same)) denied.push({ fn: call.fn, action: call.action, resource, ...(call.leadingKeys ? { leadingKeys: call.leadingKeys } : {}) });
    }
  }
  return { denied, used };
}
