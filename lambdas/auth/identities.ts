// The identity records authentication reads: organizations, users and API keys (stored by identity-repository.ts).

export interface Organization {
  id: string;
  name: string;
  subscription_active: boolean;
  /** Spam monitoring: numbers included in the plan plus purchased add-ons. */
  spam_included_numbers: number | null;
  spam_addon_numbers: number;
  created_at: string;
}

export interface User {
  id: string;
  email: string;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  organization_id: string;
  created_by_user_id: string;
  display_prefix: string;
  key_hash: string;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  /** A person's label for the key (lambdas/admin/key-name.ts); keys minted before names existed have none. */
  name?: string | null;
}
