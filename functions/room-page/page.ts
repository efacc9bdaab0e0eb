import { pageHandler } from '#http-kit/http-handler.ts';
import { config, localRuntime } from '#platform/config.ts';
import { cspOf, escapeHtml, html, notFound, observersOf, pageOf, targetOf, type Event } from './http.ts';

/**
 * GET /insider-auctions/{auctionId} and /texas-auctions/{auctionId} (public): the auction room page. One page for
 * everyone: without a session it watches (an observer), with one (login.ts) it bids. The page is a shell: its
 * script (assets/room.js) fills it from the room's WebSocket, so everything shown comes from the room document.
 * Where that WebSocket is on another host (AWS), the shell names it (`data-socket`) and the policy allows it.
 * Observers watch through the broadcast (AppSync Events; locally its stand-in on this host): the shell names its
 * real-time endpoint (`data-events`, AWS), the host its authorization names (`data-events-host`) and the key anyone
 * may watch with (`data-events-key`), and the policy allows that endpoint's origin. Locally the shell also names the
 * stand-in's endpoint over TLS (`data-events-tls`), where AWS's own clients reach it; the page does not connect there.
 */
export const handler = pageHandler(async (event: Event) => {
  const target = targetOf(event);
  if (!target) return notFound();
  const id = escapeHtml(target.auctionId);
  const { roomSocket, observers, local } = config();
  const roomEvents = observersOf(observers, local, localRuntime()?.eventsTlsUrl);
  const named = {
    socket: roomSocket,
    events: roomEvents?.url,
    'events-host': roomEvents?.host,
    'events-key': roomEvents?.apiKey,
    'events-tls': roomEvents?.tlsUrl,
  };
  const attributes = Object.entries(named)
    .map(([name, value]) => (value ? ` data-${name}="${escapeHtml(value)}"` : ''))
    .join('');
  return html(
    200,
    pageOf(
      `Auction ${target.auctionId}`,
      `<main id="room" data-auction="${id}" data-type="${target.type}" data-base="${escapeHtml(target.base)}"${attributes}>
<header class="bar">
  <span id="connection" class="connection" role="status" aria-live="polite"></span>
  <button type="button" id="lang" class="lang" aria-label="Мова / Language">EN</button>
</header>
<section class="card now" aria-labelledby="stage-name">
  <h1 id="title">${id}</h1>
  <h2 id="stage-name">—</h2>
  <p id="countdown-line" class="countdown" hidden><span id="countdown-label"></span> <time id="countdown"></time></p>
  <p id="leader-line" class="amount" hidden><span data-t="leader"></span> <strong id="leader"></strong></p>
  <p id="least-line" class="amount" hidden><span id="least-label"></span> <strong id="least"></strong></p>
  <div id="ended" class="ended" hidden></div>
</section>
<section class="card" id="bidding" hidden aria-labelledby="bid-title">
  <h2 id="bid-title" data-t="yourBid"></h2>
  <form id="bid-form" novalidate>
    <label for="bid-amount" id="bid-label" data-t="amount"></label>
    <div class="row">
      <input id="bid-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" spellcheck="false">
      <button type="submit" id="bid-send" data-t="send"></button>
    </div>
    <div class="row">
      <button type="button" id="bid-accept" data-t="accept"></button>
      <button type="button" id="bid-raise" data-t="raise"></button>
      <button type="button" id="bid-withdraw" data-t="withdraw"></button>
    </div>
  </form>
  <div id="confirm" class="confirm" role="alertdialog" aria-labelledby="confirm-text" hidden>
    <p id="confirm-text"></p>
    <div class="row">
      <button type="button" id="confirm-yes"></button>
      <button type="button" id="confirm-no" class="secondary" data-t="cancel"></button>
    </div>
  </div>
  <p id="bid-answer" class="answer" role="alert" aria-live="assertive"></p>
  <p id="bid-rule" class="rule"></p>
  <p id="own-bid" class="own" hidden></p>
</section>
<section class="card" aria-labelledby="facts-title">
  <h2 id="facts-title" data-t="auction"></h2>
  <dl class="facts">
    <dt data-t="auctionId"></dt><dd id="auction-id">${id}</dd>
    <dt data-t="organizer"></dt><dd id="organizer">—</dd>
    <dt data-t="startValue"></dt><dd id="start-value">—</dd>
    <dt data-t="minimalStep"></dt><dd id="minimal-step">—</dd>
    <dt data-t="role"></dt><dd id="role">—</dd>
  </dl>
</section>
<section class="card" aria-labelledby="results-title">
  <h2 id="results-title" data-t="results"></h2>
  <table id="results"><thead><tr><th data-t="bidder"></th><th data-t="amount"></th><th data-t="time"></th></tr></thead><tbody></tbody></table>
</section>
<section class="card" aria-labelledby="stages-title">
  <h2 id="stages-title" data-t="stages"></h2>
  <ol id="stages" class="stages"></ol>
</section>
</main>`,
      'room.js',
      target.mount,
    ),
    { 'content-security-policy': cspOf(roomSocket, roomEvents?.url) },
  );
});
