import { describe, expect, it } from 'vitest';
import { client } from '../../support/http.ts';
import { LOT_STATUSES, lotIn, patchAs } from '../../support/lots.ts';
import { useService } from '../../support/service.ts';

const service = useService();
const api = client(() => service.url);

/**
 * The lot status machine of reference-behaviour.md §2.3 (plus interface.md's pending → pending.dissolution),
 * written out here independently of the code: every move each caller may make. Everything else is refused.
 */
const ALLOWED: Record<string, string> = {
  'draft -> pending': 'owner admin',
  'pending -> verification': 'owner admin',
  'pending -> pending.deleted': 'owner admin',
  'pending -> deleted': 'owner admin',
  'pending -> pending.dissolution': 'owner admin',
  'verification -> active.salable': 'concierge admin',
  'verification -> pending': 'concierge admin',
  'pending.deleted -> deleted': 'concierge admin',
  'recomposed -> pending': 'concierge admin',
  'active.salable -> pending.dissolution': 'owner admin',
  'active.salable -> recomposed': 'owner admin',
  'active.salable -> active.awaiting': 'convoy admin',
  'active.salable -> verification': 'admin',
  'pending.dissolution -> dissolved': 'concierge admin',
  'pending.dissolution -> active.salable': 'admin',
  'active.awaiting -> active.auction': 'convoy admin',
  'active.awaiting -> active.salable': 'convoy admin',
  'active.auction -> active.salable': 'convoy admin',
  'active.auction -> pending.sold': 'convoy admin',
  'pending.sold -> sold': 'concierge admin',
};
const ROLES = ['owner', 'stranger', 'concierge', 'convoy', 'admin'];
const EDITORS: Record<string, string[]> = {
  draft: ['owner', 'admin'],
  pending: ['owner', 'admin'],
  verification: ['concierge', 'admin'],
  'pending.deleted': ['concierge', 'admin'],
  recomposed: ['concierge', 'admin'],
  'active.salable': ['convoy', 'admin', 'owner'],
  'pending.dissolution': ['concierge', 'admin'],
  'active.awaiting': ['convoy', 'admin'],
  'active.auction': ['convoy', 'admin'],
  'pending.sold': ['concierge', 'admin'],
};

const allowedMoves = Object.entries(ALLOWED).flatMap(([move, roles]) => {
  const [from, to] = move.split(' -> ');
  return roles.split(' ').map((role) => ({ from, to, role }));
});

describe('lot status machine', () => {
  it.each(allowedMoves)('lets $role move a lot from $from to $to', async ({ from, to, role }) => {
    const lot = await lotIn(api, from);
    const res = await patchAs(api, lot, role, { status: to });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe(to);
    expect(res.body.data.owner).toBe('broker');
    expect(res.body.data.date).toBe(res.body.data.dateModified);
    const read = await api.get(`/api/0.1/lots/${lot.id}`);
    expect(read.body.data.status).toBe(to);
  });

  it.each(LOT_STATUSES)(
    'refuses every other move out of %s, with the upstream error, changing nothing',
    async (from) => {
      const lot = await lotIn(api, from);
      for (const role of ROLES) {
        for (const to of LOT_STATUSES) {
          if (to === from || allowedMoves.some((m) => m.from === from && m.to === to && m.role === role)) continue;
          const res = await patchAs(api, lot, role, { status: to });
          const [error] = res.body.errors;
          // A draft is its owner's (and an admin's): to a bot's key it is not there, as an unknown id.
          if (from === 'draft' && (role === 'concierge' || role === 'convoy')) {
            expect([res.status, error]).toEqual([404, { location: 'url', name: 'lot_id', description: 'Not Found' }]);
            continue;
          }
          expect(res.status, `${role}: ${from} -> ${to}`).toBe(403);
          if (role === 'stranger') expect(error).toEqual({ location: 'url', name: 'role', description: 'Forbidden' });
          else if (to === 'draft' && EDITORS[from]?.includes(role))
            expect(error.description).toBe("Can't switch lot to draft status");
          else
            expect(error).toEqual({
              location: 'body',
              name: 'data',
              description: `Can't update lot in current (${from}) status`,
            });
        }
      }
      const read = await api.get(`/api/0.1/lots/${lot.id}`);
      expect(read.body.data).toEqual(lot.lot);
    },
  );
});
