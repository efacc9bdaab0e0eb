import { describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.ts';

/**
 * The exported route table, entry by entry, as committed in route-table.json.snap.snap: every change to a route (its path,
 * who may call it, its grant, its OpenAPI description) shows in review as a change of that file. After a deliberate
 * change: `npx vitest run -u test/unit/routes/route-table.test.ts`.
 */
/** JSON with each object's keys sorted: the order a route's fields are written in is no change. */
const sortedJson = (value: unknown) =>
  JSON.stringify(
    value,
    (_key, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v),
    1,
  );

describe('the route table', () => {
  it('is exactly the committed table (route-table.json.snap)', async () => {
    await expect(`${sortedJson(routes)}\n`).toMatchFileSnapshot('./route-table.json.snap');
  });

  it('grants read-only table access to reads and read/write to writes unless a route says otherwise', () => {
    const exceptions = routes.filter((r) => r.table !== (r.method === 'GET' ? 'ro' : 'rw'));
    expect(exceptions.every((r) => r.table === 'none')).toBe(true);
  });
});
