import { requestNow } from '#runtime/clock.ts';
import { wireRuntime } from '#runtime/wiring.ts';
import { participationSecret } from '#store/participation-secret.ts';
import {
  COOKIE,
  escapeHtml,
  formOf,
  html,
  notFound,
  pageOf,
  schemeOf,
  secureRequest,
  SECURITY_HEADERS,
  targetOf,
  type Event,
  type PageTarget,
  type Result,
} from './http.ts';
import { SESSION_SECONDS, sessionToken } from './session.ts';

/**
 * GET /insider-auctions/{auctionId}/login?bidder_id=&signature= (2.3), /texas-auctions/{auctionId}/login?bidder_id=
 * &hash= (2.5), public: a bidder's participation link. The link is verified here (Ed25519 / SHA-1,
 * domain/auctions/room-links.ts) and the auction's terms shown with "I agree" (as the original's login page); the
 * agreement (POST, the same fields) verifies again and gives the bidder's session: an HttpOnly, SameSite=Strict cookie
 * for this auction's pages only (Secure over HTTPS), then the room page. A link that does not verify is a 403.
 */
export const handler = async (event: Event): Promise<Result> => {
  wireRuntime();
  const target = targetOf(event);
  if (!target) return notFound();
  const scheme = schemeOf(target);
  const fields =
    event.requestContext.http.method === 'POST' ? formOf(event) : new URLSearchParams(event.rawQueryString);
  const bidderId = fields.get('bidder_id') ?? '';
  const key = fields.get(scheme.param) ?? '';
  const secret = await participationSecret();
  if (!/^[0-9a-f]{32}$/.test(bidderId) || !scheme.verify(secret, target.auctionId, bidderId, key)) return refused();
  if (event.requestContext.http.method !== 'POST') return terms(target, bidderId, scheme.param, key);
  const nowSeconds = Math.floor(requestNow() / 1e6);
  const cookie = [
    `${COOKIE}=${sessionToken(secret, 'cookie', target.auctionId, bidderId, nowSeconds)}`,
    `Path=${target.base}`,
    `Max-Age=${SESSION_SECONDS.cookie}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secureRequest(event) ? ['Secure'] : []),
  ].join('; ');
  return { statusCode: 303, headers: { ...SECURITY_HEADERS, location: target.base, 'set-cookie': cookie }, body: '' };
};

const refused = () =>
  html(
    403,
    pageOf(
      'Invalid participation link',
      '<main class="card"><h1>Недійсне посилання · Invalid participation link</h1><p>Посилання на участь не підходить до цього аукціону. · The participation link does not match this auction.</p></main>',
    ),
  );

/** The terms page, in both languages (no script): the form posts the link's fields back. */
const terms = (target: PageTarget, bidderId: string, param: string, key: string) =>
  html(
    200,
    pageOf(
      'Auction terms',
      `<main class="card terms">
<h1 lang="uk">Умови аукціону</h1>
<p lang="uk">Ви входите до аукціону ${escapeHtml(target.auctionId)} як учасник. Ваші ставки обов'язкові: прийнята ставка не відкликається, крім закритої ставки до кінця її етапу. Посилання на участь особисте: не передавайте його.</p>
<h1 lang="en">Auction terms</h1>
<p lang="en">You are entering auction ${escapeHtml(target.auctionId)} as a bidder. Your bids are binding: an accepted bid cannot be taken back, except a sealed bid before its stage ends. The participation link is personal: do not share it.</p>
<form method="post" action="${escapeHtml(target.base)}/login">
<input type="hidden" name="bidder_id" value="${escapeHtml(bidderId)}">
<input type="hidden" name="${escapeHtml(param)}" value="${escapeHtml(key)}">
<button type="submit" id="agree">Погоджуюсь · I agree</button>
</form>
</main>`,
    ),
  );
