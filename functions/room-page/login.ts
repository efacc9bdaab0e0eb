import { wireRuntime } from '#runtime/wiring.ts';
import { escapeHtml, html, notFound, pageOf, targetOf, type Event, type PageTarget, type Result } from './http.ts';
import { isRefusal, verifiedLink, type VerifiedLink } from './link.ts';

/**
 * GET /insider-auctions/{auctionId}/login?bidder_id=&signature= (2.3), /texas-auctions/{auctionId}/login?bidder_id=
 * &hash= (2.5), public: a bidder's participation link. The link is verified here (link.ts) and the auction's terms
 * shown with "I agree" (as the original's login page); the agreement posts the same fields to agree.ts, which gives
 * the session. A link that does not verify is a 403.
 */
export const handler = async (event: Event): Promise<Result> => {
  wireRuntime();
  const target = targetOf(event);
  if (!target) return notFound();
  const link = await verifiedLink(target, new URLSearchParams(event.rawQueryString));
  return isRefusal(link) ? link : terms(target, link);
};

/** The terms page, in both languages (no script): the form posts the link's fields back. */
const terms = (target: PageTarget, { bidderId, param, key }: VerifiedLink) =>
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
      undefined,
      target.mount,
    ),
  );
