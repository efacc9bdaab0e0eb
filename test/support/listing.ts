import { expect } from 'vitest';
import type { client } from './http.ts';

/**
 * Follows a listing feed's `next_page.path` until an empty page, checking what each page costs in DynamoDB: the
 * change feed one Query, the dateModified feed the lane's head and one Query (store/journal.ts `listingPage`).
 * Returns every row seen and the last answer.
 */
export async function walkFeed(
  api: ReturnType<typeof client>,
  path: string,
  queriesPerPage = path.includes('feed=changes') ? 1 : 2,
) {
  const seen: any[] = [];
  let next = path;
  for (let page = 0; page < 50; page++) {
    const res = await api.get(next);
    expect(res.status).toBe(200);
    expect(res.requests).toBeLessThanOrEqual(queriesPerPage);
    if (res.body.data.length === 0) return { seen, last: res.body };
    seen.push(...res.body.data);
    next = res.body.next_page.path;
  }
  throw new Error('listing did not end');
}
