// Customer-supplied JSON (a contact's `properties`, and the events that carry it) may use any key:
// `constructor`, `__proto__`, `prototype` too. JSON.parse keeps each as an own key, but the DynamoDB
// document client does not: it reads `value.constructor.name` to pick an attribute type (an own
// `constructor` key made it throw, a 500) and rebuilds maps by assignment (an own `__proto__` key
// became the map's prototype and vanished). Such values are stored as JSON text instead, written
// with JSON.stringify and read back with JSON.parse, which keep every key as it was sent.

/** The value as the table keeps it. */
export const toJsonText = (value: unknown): string => JSON.stringify(value);

/** A value kept as JSON text, or (items written before) as a map the document client read. */
export function fromJsonText<T>(stored: unknown): T {
  return (typeof stored === 'string' ? JSON.parse(stored) : stored) as T;
}

/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * JSON text with every object's members in sorted order, so that equal JSON values (RFC 8259
 * gives an object's members no order) give the same text: what compares two requests' customer
 * JSON, as a retry that sends `{"b":1,"a":2}` for `{"a":2,"b":1}` sends the same request.
 */
export const sortedJsonText = (value: unknown): string =>
  JSON.stringify(value, (_key, member: unknown) => (isJsonObject(member) ? Object.fromEntries(Object.keys(member).sort().map((key) => [key, member[key]])) : member));
