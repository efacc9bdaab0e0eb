import { pageHandler } from '#http-kit/http-handler.ts';
import type { RoomState } from '#domain/room/engine.ts';
import { roomState } from '#runtime/room-page.ts';
import { escapeHtml, html, notFound, pageOf, targetOf, type Event, type PageTarget, type Result } from './http.ts';
import { isRefusal, verifiedLink, type VerifiedLink } from './link.ts';

/**
 * GET /insider-auctions/{auctionId}/login?bidder_id=&signature= (2.3), /texas-auctions/{auctionId}/login?bidder_id=
 * &hash= (2.5), public: a bidder's participation link. The link is verified here (link.ts) and the auction's terms
 * shown with "I agree" (as the original's login page), with what the bidder agrees to bid in: the auction's title,
 * organizer, starting value and start, from the room's state (one read; before the room is planned, the id alone).
 * The agreement posts the same fields to agree.ts, which gives the session. A link that does not verify is a 403.
 */
export const handler = pageHandler(async (event: Event): Promise<Result> => {
  const target = targetOf(event);
  if (!target) return notFound();
  const link = await verifiedLink(target, new URLSearchParams(event.rawQueryString));
  if (isRefusal(link)) return link;
  return terms(target, link, await roomState(target.auctionId));
});

/** The auction's facts in both languages (Kyiv time; the amounts as each language writes them). */
function facts(state: RoomState | undefined): string {
  if (!state) return '';
  const { amount, currency } = state.value;
  const number = (locale: string) => new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(amount);
  // As the room page writes it (Chromium's uk-UA: "грн", never "₴").
  const uk = `${number('uk-UA')} ${currency === 'UAH' ? 'грн' : currency}`;
  const en = `${currency} ${number('en-GB')}`;
  const start = (locale: string) =>
    new Date(Date.parse(state.startDate.replace(/(\.\d{3})\d+/, '$1'))).toLocaleString(locale, {
      timeZone: 'Europe/Kyiv',
      dateStyle: 'long',
      timeStyle: 'short',
    });
  const rows: [string, string, string | undefined][] = [
    ['Аукціон · Auction', 'title', state.title],
    ['Організатор · Organizer', 'organizer', state.procuringEntityName],
    ['Стартова ціна · Starting value', 'value', `${uk} · ${en}`],
    ['Початок · Start', 'start', `${start('uk-UA')} · ${start('en-GB')}`],
  ];
  return `<dl class="facts">${rows
    .filter(([, , value]) => value)
    .map(([label, id, value]) => `<dt>${label}</dt><dd id="terms-${id}">${escapeHtml(value as string)}</dd>`)
    .join('')}</dl>`;
}

/** The terms page, in both languages (no script): the form posts the link's fields back. */
const terms = (target: PageTarget, { bidderId, param, key }: VerifiedLink, state: RoomState | undefined) =>
  html(
    200,
    pageOf(
      'Auction terms',
      `<main class="card terms">
${facts(state)}
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
