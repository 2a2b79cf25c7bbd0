import { ByteBudget } from './byte-budget';

/** Who a request's body is counted against: an organization's id, or null (not authenticated). */
export type Tenant = string | null;

export interface TenantBudgetLimits {
  /** Bodies one organization holds in memory at once. */
  perOrganization: number;
  /** Bodies of requests not authenticated (no route needing a key, or a key that could not be checked) at once. */
  anonymous: number;
  /** Bodies of everyone at once: the server's memory bound. At least perOrganization. */
  total: number;
}

/**
 * The local server's in-flight body budget, one per organization (and one small one for requests
 * without an organization), under a total. A request waits for its own tenant's budget first,
 * then for the total: one organization's slow or large uploads hold at most its own budget, so
 * they never delay another organization's requests (only several organizations at their full
 * budgets at once fill the total).
 */
export class TenantBudgets {
  private readonly tenants = new Map<string, ByteBudget>();
  private readonly anonymous: ByteBudget;
  private readonly total: ByteBudget;

  constructor(readonly limits: TenantBudgetLimits) {
    if (!(limits.total >= limits.perOrganization)) throw new Error(`The total body budget (${limits.total}) must hold at least one organization's (${limits.perOrganization})`);
    this.anonymous = new ByteBudget(limits.anonymous);
    this.total = new ByteBudget(limits.total);
    // Checked here so a bad value fails at start, not at an organization's first request.
    void new ByteBudget(limits.perOrganization);
  }

  /** Resolves with a release function once `bytes` fit the tenant's budget and the total. */
  async acquire(tenant: Tenant, bytes: number): Promise<() => void> {
    const own = this.budgetOf(tenant);
    const releaseOwn = await own.acquire(bytes);
    const releaseTotal = await this.total.acquire(bytes);
    return () => {
      releaseTotal();
      releaseOwn();
      this.forgetIdle(tenant, own);
    };
  }

  /** Bytes held: by one tenant, or by everyone (no argument). */
  inUse(tenant?: Tenant): number {
    if (tenant === undefined) return this.total.inUse;
    return tenant === null ? this.anonymous.inUse : (this.tenants.get(tenant)?.inUse ?? 0);
  }

  /** Requests waiting for a tenant's budget. */
  queued(tenant: Tenant): number {
    return tenant === null ? this.anonymous.queued : (this.tenants.get(tenant)?.queued ?? 0);
  }

  /** Organizations with a budget in use or awaited (idle ones are forgotten). */
  get activeOrganizations(): number {
    return this.tenants.size;
  }

  private budgetOf(tenant: Tenant): ByteBudget {
    if (tenant === null) return this.anonymous;
    let budget = this.tenants.get(tenant);
    if (!budget) this.tenants.set(tenant, (budget = new ByteBudget(this.limits.perOrganization)));
    return budget;
  }

  private forgetIdle(tenant: Tenant, budget: ByteBudget): void {
    if (tenant !== null && budget.idle && this.tenants.get(tenant) === budget) this.tenants.delete(tenant);
  }
}
