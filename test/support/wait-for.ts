/**
 * Polls until `probe` answers (not null). Tests wait on a condition, never on a clock; the bound only
 * stops a hung test, so it is generous (under load, recovery, pooling and deliveries take a while).
 */
export async function waitFor<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 120_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
