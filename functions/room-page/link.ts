import { pageSecret } from '#runtime/room-page.ts';
import { html, pageOf, schemeOf, type PageTarget, type Result } from './http.ts';

/** A bidder's participation link, verified: who it names, the key it carries, and the secret it was checked with. */
export interface VerifiedLink {
  bidderId: string;
  param: string;
  key: string;
  secret: string;
}

/**
 * The link's fields (`bidder_id` and the type's key: `signature` Ed25519 for 2.3, `hash` SHA-1 for 2.5,
 * domain/auctions/room-links.ts) checked against the auction; a link that does not verify is the 403 page.
 */
export async function verifiedLink(target: PageTarget, fields: URLSearchParams): Promise<VerifiedLink | Result> {
  const scheme = schemeOf(target);
  const bidderId = fields.get('bidder_id') ?? '';
  const key = fields.get(scheme.param) ?? '';
  const secret = await pageSecret();
  if (!/^[0-9a-f]{32}$/.test(bidderId) || !scheme.verify(secret, target.auctionId, bidderId, key))
    return refused(target.mount);
  return { bidderId, param: scheme.param, key, secret };
}

export const isRefusal = (link: VerifiedLink | Result): link is Result => 'statusCode' in link;

const refused = (mount: string) =>
  html(
    403,
    pageOf(
      'Invalid participation link',
      '<main class="card"><h1>Недійсне посилання · Invalid participation link</h1><p>Посилання на участь не підходить до цього аукціону. · The participation link does not match this auction.</p></main>',
      undefined,
      mount,
    ),
  );
