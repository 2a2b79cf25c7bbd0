import type { Adapter, AdapterPayload } from 'oidc-provider';

// Where the local provider keeps its sessions, interactions, codes and grants: this process's
// memory. A restart signs people out of the provider (the console's access tokens are JWTs signed
// with the persisted key, so they stay valid until they expire). Expired entries are dropped when
// read and by a sweep, so memory stays bounded by what is live.

const stores = new Map<string, Map<string, { payload: AdapterPayload; expiresAt: number }>>();

export class MemoryAdapter implements Adapter {
  private readonly items: Map<string, { payload: AdapterPayload; expiresAt: number }>;

  constructor(readonly name: string) {
    this.items = stores.get(name) ?? new Map();
    stores.set(name, this.items);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    this.sweep();
    this.items.set(id, { payload, expiresAt: Date.now() + expiresIn * 1000 });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const item = this.items.get(id);
    if (!item) return undefined;
    if (item.expiresAt <= Date.now()) {
      this.items.delete(id);
      return undefined;
    }
    return item.payload;
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    for (const [id, item] of this.items) if (item.payload.userCode === userCode) return this.find(id);
    return undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    for (const [id, item] of this.items) if (item.payload.uid === uid) return this.find(id);
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const item = this.items.get(id);
    if (item) item.payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.items.delete(id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, item] of this.items) if (item.payload.grantId === grantId) this.items.delete(id);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, item] of this.items) if (item.expiresAt <= now) this.items.delete(id);
  }
}
