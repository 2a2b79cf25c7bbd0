import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { logger } from '../lambdas/platform/logger';

// Where the local provider keeps its sessions, interactions, codes and grants: this process's
// memory, and, with a data folder, a file beside the provider's keys, so `npm start` restarted
// keeps people signed in to the provider (the console's access tokens are JWTs signed with the
// persisted key, so they stay valid either way). Expired entries are dropped when read, by a
// sweep, and when the file is loaded, so the file stays bounded by what is live.

type Entry = { payload: AdapterPayload; expiresAt: number };
type Stores = Map<string, Map<string, Entry>>;

/** The sessions file: written whole (temporary file, then rename), readable by its owner only. */
class SessionFile {
  constructor(readonly path: string) {}

  load(): Stores {
    const stores: Stores = new Map();
    let saved: Record<string, Record<string, Entry>>;
    try {
      saved = JSON.parse(readFileSync(this.path, 'utf8')) as Record<string, Record<string, Entry>>;
    } catch (error) {
      // None yet, or unreadable (a hand edit): start signed out rather than refuse to start, and say so.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        logger.warn('console: the sign-in sessions file could not be read; everyone signed in to the console must sign in again (nothing else is lost)', { file: this.path, error: error as Error });
      }
      return stores;
    }
    const now = Date.now();
    for (const [name, items] of Object.entries(saved ?? {})) {
      const live = new Map<string, Entry>();
      for (const [id, entry] of Object.entries(items ?? {})) if (entry && typeof entry.expiresAt === 'number' && entry.expiresAt > now && entry.payload) live.set(id, entry);
      stores.set(name, live);
    }
    return stores;
  }

  save(stores: Stores): void {
    const data = Object.fromEntries([...stores].map(([name, items]) => [name, Object.fromEntries(items)]));
    mkdirSync(dirname(this.path), { recursive: true });
    const temp = `${this.path}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(data), { mode: 0o600 });
      chmodSync(temp, 0o600);
      renameSync(temp, this.path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }
}

/**
 * The adapter class oidc-provider instantiates once per model (Session, Grant, Interaction, …).
 * With `file`, every change is written to it synchronously (one small JSON file; sign-ins are
 * rare), so what the provider was told is stored is on disk before it answers.
 */
export function oidcAdapter(file: string | null): new (name: string) => Adapter {
  const sessions = file ? new SessionFile(file) : null;
  const stores: Stores = sessions?.load() ?? new Map();
  const persist = () => sessions?.save(stores);

  return class StoredAdapter implements Adapter {
    private readonly items: Map<string, Entry>;

    constructor(readonly name: string) {
      this.items = stores.get(name) ?? new Map();
      stores.set(name, this.items);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      this.sweep();
      this.items.set(id, { payload, expiresAt: Date.now() + expiresIn * 1000 });
      persist();
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
      if (!item) return;
      item.payload.consumed = Math.floor(Date.now() / 1000);
      persist();
    }

    async destroy(id: string): Promise<void> {
      if (this.items.delete(id)) persist();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      let changed = false;
      for (const [id, item] of this.items) if (item.payload.grantId === grantId) changed = this.items.delete(id) || changed;
      if (changed) persist();
    }

    private sweep(): void {
      const now = Date.now();
      for (const [id, item] of this.items) if (item.expiresAt <= now) this.items.delete(id);
    }
  };
}
