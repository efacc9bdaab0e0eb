import { afterAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { useService } from '../../support/service.ts';
import { scanTable } from './fuzz-support.ts';
import { fullProcedure } from './procedure.ts';

const service = useService();
const api = client(() => service.url);

/** DESIGN §4: tokens are stored as SHA-256 hashes only. After a whole procedure, no token a client got is in the table. */
describe('access tokens at rest', () => {
  let reset: (() => Promise<void>) | undefined;
  afterAll(() => reset?.());

  it('appear in no attribute of any item after a full procedure', async () => {
    const world = await fullProcedure(api, service);
    reset = () => world.clock.reset();
    const tokens = [...new Set(world.tokens)];
    expect(tokens.length).toBeGreaterThanOrEqual(12);
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{32,}$/);
    const items = await scanTable();
    expect(items.length).toBeGreaterThan(20);
    // Every attribute, keys and nested values included, as text; tokens in either case.
    const text = JSON.stringify(items).toLowerCase();
    const found = tokens.filter((t) => text.includes(t.toLowerCase()));
    expect(found).toEqual([]);
  }, 120_000);
});
