import { decodeCursor, encodeCursor, invalidCursor } from './cursor';
import { queryItems, type Item } from './table';

export interface PageQuery<T> {
  /** What the cursor is bound to (`cursorScope(list, organization, filters)`). */
  scope: string;
  index: 'gsi1' | 'gsi2';
  partition: string;
  limit: number;
  cursor?: string;
  /** Items the list hides (internal states); they are read past, never counted. */
  visible?: (item: Item) => boolean;
  map: (item: Item) => T;
}

/**
 * One page of an index partition, newest first. A next cursor is given only when a further visible
 * item exists: the query reads one item past the page, so a last page that is exactly full ends the
 * list (next_cursor null) instead of leading to an empty page. The cursor holds the key of the
 * page's last item, encrypted and bound to `scope`; a cursor whose position lies outside the
 * partition is refused like any invalid one, so DynamoDB never sees a foreign start key.
 */
export async function queryPage<T>(query: PageQuery<T>): Promise<{ data: T[]; nextCursor: string | null }> {
  const pk = `${query.index}pk`;
  const sk = `${query.index}sk`;
  let start: Item | undefined;
  if (query.cursor) {
    const position = await decodeCursor(query.scope, query.cursor);
    if (position[pk] !== query.partition || !position.pk || !position.sk || !position[sk] || Object.keys(position).length !== 4) {
      throw invalidCursor();
    }
    start = position;
  }
  const found: Item[] = [];
  const items = queryItems(
    { IndexName: query.index, KeyConditionExpression: `${pk} = :pk`, ExpressionAttributeValues: { ':pk': query.partition }, ScanIndexForward: false },
    query.limit + 1,
    { startKey: start, keep: query.visible },
  );
  for await (const item of items) found.push(item);

  const page = found.slice(0, query.limit);
  if (found.length <= query.limit) return { data: page.map(query.map), nextCursor: null };
  const last = page[page.length - 1]!;
  const position = { pk: String(last.pk), sk: String(last.sk), [pk]: String(last[pk]), [sk]: String(last[sk]) };
  return { data: page.map(query.map), nextCursor: await encodeCursor(query.scope, position) };
}
