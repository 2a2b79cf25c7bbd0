export const num = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '—');
export const label = (status: string) => status.replace(/_/g, ' ');
const SOURCES: Record<string, string> = { web: 'console', api: 'API', api_pool: 'single contacts' };
/** Where an upload came from, in words: the console, the API, or single contacts pooled together. */
export const sourceWords = (source: string) => SOURCES[source] ?? label(source);
/** `n` with its noun, singular for exactly one: "1 number", "5 numbers", "1 second". */
export const counted = (n: number, singular: string, plural = `${singular}s`) => `${num(n)} ${n === 1 ? singular : plural}`;
