// The auction room page (functions/room-page/page.ts is its shell): a bidder follows the room over its WebSocket
// (functions/room/protocol.schema.json), an observer through the broadcast (broadcast.js), and the page shows the room
// document as it comes and sends a bidder's bids. The time shown is the server's (every document and pong carries it),
// never the browser's. A dropped connection is reconnected by itself, with a fresh session token, and the bid in flight
// is settled against the document: sent again, with the same bidId (the room answers a named bid once), only if the
// room does not show it and its stage is still on, so it is neither lost nor doubled. Its modules, served beside it:
// words.js (uk/en), amounts.js (typed amounts, the offer), stages.js (the document's time and stages), broadcast.js.

import {
  FAR,
  money as moneyIn,
  nextAbove,
  offerIn,
  parseAmount,
  plain as plainIn,
  timesOf,
  toCents,
} from './amounts.js';
import { broadcast, readRoom } from './broadcast.js';
import { BIDDING, countdown, dutchAmount, instant, mayBidIn, nextStage, stageAt, clockOf, whenOf } from './stages.js';
import { texts } from './texts.js';
import { languageOf, WORDS } from './words.js';

const root = document.getElementById('room');
const auctionId = root.dataset.auction;
const base = root.dataset.base;
// The room's WebSocket: where the shell names it (AWS: the room stack's own host), else this host's /room (locally).
const socketUrl = root.dataset.socket ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/room`;
// The observers' broadcast: its real-time endpoint where the shell names it (AWS), else this host's stand-in; the host
// its authorization names (AWS: the Event API's HTTP domain) and the key anyone may watch with. No key: the room socket.
const eventsUrl =
  root.dataset.events ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/event/realtime`;
const eventsAuth = root.dataset.eventsKey && {
  host: root.dataset.eventsHost ?? new URL(eventsUrl).host,
  'x-api-key': root.dataset.eventsKey,
};
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------------------------ state

/** Everything of the page that changes, in one place. */
const state = {
  // The language chosen on the page before, else the browser's (words.js `languageOf`).
  lang: languageOf(localStorage.getItem('room-lang'), navigator.languages?.[0] ?? navigator.language),
  room: undefined, // the latest room message
  me: undefined, // the bidder's view, or undefined (an observer)
  offsetMs: 0, // server time minus browser time
  socket: undefined, // the room socket (a bidder's)
  attempts: 0, // connections tried since the last one that worked
  connection: { kind: 'connecting' },
  pending: undefined, // { amount, stage, type, bidId } a bid sent and not yet answered
  proposal: undefined, // { cents, stage, type, far, asked, from } a bid shown back for confirmation, not sent yet
  lastAnswer: () => '', // the bid answer, in words of the current language and document
  shownStage: undefined, // the stage drawn last (tick: a boundary passed draws the page again)
  // The broadcast's own (broadcast.js): its connection, a read of the room under way, what came meanwhile.
  watching: undefined,
  reading: undefined,
  early: [],
};

const t = (key) => WORDS[state.lang][key];
const serverNow = () => Date.now() + state.offsetMs;
const syncClock = (serverTime) => {
  const at = instant(serverTime);
  if (Number.isFinite(at)) state.offsetMs = at - Date.now();
};

const money = (amount, currency = state.room?.document.value.currency ?? 'UAH') =>
  moneyIn(amount, currency, state.lang);
const clock = (text) => clockOf(text, state.lang);
/** The current stage by the server's clock (stages.js `stageAt`). */
const stageOf = (doc) => stageAt(doc, serverNow(), state.room?.closed);
const when = (text) => whenOf(text, serverNow(), state.lang);
const { stageName, labelOf, outsideOffer, ruleOf, waitOf, endLines, explain } = texts({
  words: () => WORDS[state.lang],
  money,
  when,
  now: serverNow,
});

// ------------------------------------------------------------------------------------------------ drawing

function setConnection(kind, attempt) {
  state.connection = { kind, attempt };
  drawConnection();
}

function drawConnection() {
  const el = $('connection');
  const { kind, attempt } = state.connection;
  el.textContent =
    kind === 'reconnecting'
      ? state.room
        ? t('reconnecting')(attempt)
        : t('notOpen')
      : t(kind === 'online' ? 'online' : 'connecting');
  el.dataset.state = kind;
}

function drawStatic() {
  document.documentElement.lang = state.lang;
  $('lang').textContent = state.lang === 'uk' ? 'EN' : 'UA';
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  drawConnection();
}

function draw() {
  drawStatic();
  if (!state.room) return;
  const doc = state.room.document;
  const stage = stageOf(doc);
  $('title').textContent = doc.title || doc.auctionId;
  document.title = doc.title || doc.auctionId;
  $('auction-id').textContent = doc.auctionId;
  $('organizer').textContent = doc.procuringEntityName ?? '—';
  $('start-value').textContent = money(doc.value.amount, doc.value.currency);
  $('minimal-step').textContent = doc.step ? money(doc.step) : '—';
  $('role').textContent = state.me ? labelOf(doc, state.me.bidderNumber) : t('observer');
  $('stage-name').textContent = stage ? stageName(stage) : '—';
  // The stage's own name and type, for a reader that does not read words (tests, assistive styling).
  $('stage-name').dataset.stage = stage?.name ?? '';
  $('stage-name').dataset.type = stage?.type ?? '';
  root.dataset.version = String(doc.version);
  root.dataset.ended = doc.ended ? (doc.namesRevealed ? 'revealed' : 'ended') : '';
  drawLeader(doc);
  drawLeast(doc, stage);
  drawStages(doc);
  drawResults(doc);
  drawEnd();
  drawBidding(doc, stage);
  tick();
}

/** Who leads now (the best result the room shows), and whether it is you. */
function drawLeader(doc) {
  const best = doc.results[0];
  $('leader-line').hidden = state.room.closed === true;
  const mine = best && state.me && best.bidderNumber === state.me.bidderNumber;
  $('leader').textContent = best
    ? `${labelOf(doc, best.bidderNumber)}${mine ? ` (${t('you')})` : ''} — ${money(best.amount)}`
    : t('noLeader');
  $('leader').dataset.you = mine ? 'true' : 'false';
}

/**
 * The least acceptable amount, now or (in a pause) in the next stage: what the room's offer says. A bidder sees it only
 * for a stage they may bid in (the Dutch winner takes no sealed bid, the others no best bid); an observer always.
 */
function drawLeast(doc, stage) {
  const now = currentOffer();
  const ahead = !now && doc.offer && !doc.ended && !state.room.closed ? doc.offer : undefined;
  const offerStage = now ? stage : ahead && doc.stages.find((s) => s.name === ahead.stage);
  const theirs = !state.me || mayBidIn(doc, offerStage, state.me);
  const offer = theirs ? (now ?? (ahead && { from: toCents(ahead.from), upTo: toCents(ahead.upTo) })) : undefined;
  $('least-line').hidden = !offer;
  if (!offer) return;
  const exact = offer.from === offer.upTo;
  $('least-label').textContent = ahead ? t('leastNext') : exact ? t('stepPrice') : t('leastFrom');
  $('least').textContent = exact ? money(offer.from / 100) : t('from')(money(offer.from / 100));
  $('least').dataset.stage = now ? (stage?.name ?? '') : ahead.stage;
}

function drawStages(doc) {
  const list = $('stages');
  const current = stageOf(doc)?.index ?? doc.currentStage;
  const bids = new Map();
  for (const b of doc.history ?? []) bids.set(b.stage, [...(bids.get(b.stage) ?? []), b]);
  // The Dutch steps after the accepted one were never held.
  const dutchWon = doc.history?.find((b) => b.stage.startsWith('dutch_'));
  const wonAt = dutchWon && doc.stages.find((s) => s.name === dutchWon.stage)?.index;
  list.replaceChildren(
    ...doc.stages.map((stage) => {
      const li = document.createElement('li');
      const isCurrent = stage.index === current;
      const skipped = stage.type === 'dutch' && wonAt !== undefined && stage.index > wonAt;
      li.className = isCurrent ? 'current' : skipped ? 'skipped' : stage.index < current ? 'past' : '';
      if (isCurrent) li.setAttribute('aria-current', 'step');
      const amount = stage.amount !== undefined ? ` · ${money(stage.amount)}` : '';
      li.textContent = `${clock(stage.start)} ${stageName(stage)}${amount}${skipped ? ` (${t('skipped')})` : ''}`;
      for (const b of bids.get(stage.name) ?? []) {
        const line = document.createElement('span');
        line.className = 'bid';
        line.textContent = t('bidBy')(labelOf(doc, b.bidderNumber), money(b.amount), clock(b.date));
        li.append(line);
      }
      return li;
    }),
  );
  // The current stage is scrolled into the list's own view, never the page's: the page must not jump on an update.
  const li = list.querySelector('.current');
  if (li && (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight))
    list.scrollTop = li.offsetTop - list.clientHeight / 2;
}

/** Every bidder: the results best first (the leader, the Dutch and sealed winners marked), then those with no bid. */
function drawResults(doc) {
  const body = $('results').tBodies[0];
  const shown = new Set(doc.results.map((r) => r.bidderNumber));
  const silent = doc.bidders.filter((b) => !shown.has(b.bidderNumber)).map((b) => ({ bidderNumber: b.bidderNumber }));
  body.replaceChildren(
    ...[...doc.results, ...silent].map((r, i) => {
      const tr = document.createElement('tr');
      const mine = state.me && r.bidderNumber === state.me.bidderNumber;
      if (mine) tr.className = 'mine';
      // A sealed bid is shown to its bidder alone: their row says it, never "no bid" under "Your latest bid".
      const ownSealed = mine && r.amount === undefined && state.me.ownBid !== undefined;
      const marks = [
        i === 0 && r.amount !== undefined ? (mine ? t('youLead') : t('leads')) : mine ? t('you') : '',
        r.dutchWinner ? t('dutchWinner') : '',
        r.sealedbidWinner ? t('sealedWinner') : '',
        ownSealed ? t('onlyYou') : '',
      ].filter(Boolean);
      const cells = [
        [labelOf(doc, r.bidderNumber), marks],
        [r.amount !== undefined ? money(r.amount) : ownSealed ? money(state.me.ownBid.amount) : t('noBid'), []],
        [r.date ? clock(r.date) : '', []],
      ];
      for (const [text, badges] of cells) {
        const td = document.createElement('td');
        td.textContent = text;
        for (const badge of badges) {
          const mark = document.createElement('span');
          mark.className = 'mark';
          mark.textContent = badge;
          td.append(' ', mark);
        }
        tr.append(td);
      }
      return tr;
    }),
  );
}

function drawEnd() {
  const el = $('ended');
  const lines = endLines(state.room);
  el.hidden = lines.length === 0;
  el.replaceChildren(
    ...lines.map((line, i) => {
      const span = document.createElement(i === 1 ? 'strong' : 'span');
      span.id = i === 1 ? 'winner' : '';
      span.textContent = line;
      return span;
    }),
  );
}

/**
 * Whether this bidder may bid in `stage`: the document says so for the stage it was made in and the next one, as the
 * page's clock may pass into that before the next document arrives (the Dutch winner would read "only the Dutch winner
 * bids now" at the start of the best bid).
 */
function drawBidding(doc, stage) {
  // Once the room ends (or is cancelled) no stage is on: its answer, rule and pending confirmation go with it, and with
  // nothing left to do or say the card goes too (the results show the bidder's own line).
  const over = (doc.ended || state.room.closed) && !state.pending;
  if (over) {
    state.lastAnswer = () => '';
    state.proposal = undefined;
  }
  $('bidding').hidden = !state.me || over;
  if (!state.me) return;
  const type = stage?.type;
  const open = mayBidIn(doc, stage, state.me) && !doc.ended && !state.room.closed && BIDDING.includes(type);
  $('bid-rule').textContent = open
    ? ruleOf(doc, stage, currentOffer())
    : stage && !doc.ended && !state.room.closed
      ? waitOf(doc, stage, state.me)
      : '';
  $('bid-rule').hidden = $('bid-rule').textContent === '';
  $('own-bid').textContent = state.me.ownBid
    ? `${t('own')} ${money(state.me.ownBid.amount)} (${clock(state.me.ownBid.date)})`
    : '';
  $('own-bid').hidden = !state.me.ownBid;
  const show = (id, visible) => {
    $(id).hidden = !visible;
    $(id).disabled = !visible || state.pending !== undefined;
  };
  show('bid-accept', open && (type === 'dutch' || type === 'english'));
  show('bid-raise', open && type === 'english');
  show('bid-withdraw', open && (type === 'sealedbid' || type === 'bestbid') && state.me.ownBid !== undefined);
  // In the best bid, -1 is no withdrawal: the Dutch winner's amount stands (insider `bestbid`).
  $('bid-withdraw').dataset.t = type === 'bestbid' ? 'keepDutch' : 'withdraw';
  $('bid-withdraw').textContent = t($('bid-withdraw').dataset.t);
  const field = open && type !== 'dutch';
  $('bid-form').hidden = !open;
  $('bid-label').hidden = !field;
  show('bid-amount', field);
  show('bid-send', field);
  const input = $('bid-amount');
  const offer = currentOffer();
  // The English round's least acceptable amount is proposed; an amount the bidder typed above it stays.
  if (field && type === 'english' && offer && !(parseAmount(input.value, state.lang).cents >= offer.from))
    input.value = plain(offer.from);
  $('bid-answer').textContent = state.lastAnswer();
  drawConfirm();
}

function tick() {
  if (!state.room) return;
  const doc = state.room.document;
  const stage = stageOf(doc);
  if (stage?.name !== state.shownStage) {
    state.shownStage = stage?.name;
    if (state.proposal && state.proposal.stage !== stage?.name) cancelProposal(t('changed'));
    return draw(); // a boundary passed on the server's clock: the stage, its amount and the controls change
  }
  // A bidding stage counts down to its end; any other to the next stage (or, before it all, to the start).
  const over = doc.ended || state.room.closed || !stage;
  const started = stage && instant(stage.start) <= serverNow();
  const next = stage && (BIDDING.includes(stage.type) || !started ? undefined : nextStage(doc, stage));
  const target = !started ? stage?.start : next ? next.start : stage?.end;
  $('countdown-line').hidden = over || target === undefined;
  if (over || target === undefined) return;
  $('countdown-label').textContent = !started
    ? t('startsAt')(when(stage.start))
    : next
      ? t('next')(stageName(next), when(next.start))
      : t('timeLeft');
  const left = countdown(Math.round((instant(target) - serverNow()) / 1000));
  $('countdown').textContent = left.text;
  $('countdown').dateTime = left.dateTime;
}

// ------------------------------------------------------------------------------------------------ amounts

/** An amount in cents as the page writes it in an input (amounts.js `plain`). */
const plain = (cents) => plainIn(cents, state.lang);

/** A typed amount in cents, or `{ error }` in words (amounts.js `parseAmount`). */
function amountOf(typed) {
  const { cents, error } = parseAmount(typed, state.lang);
  if (!error) return { cents };
  if (error === 'ambiguous') return { error: t('ambiguous')(typed.trim()) };
  if (error === 'tooLarge') return { error: t('above')(money(currentOffer()?.upTo ?? 0)) };
  return { error: t(error) };
}

/** What a bid may be now, in cents (amounts.js `offerIn`). */
const currentOffer = () => state.room && offerIn(state.room.document, stageOf(state.room.document));

// ------------------------------------------------------------------------------------------------ bids

/** Shows a bid answer: a text, or a function giving it in the current language from the current document. */
function answer(text) {
  state.lastAnswer = typeof text === 'function' ? text : () => text;
  $('bid-answer').textContent = state.lastAnswer();
}

/** 32 random hex digits (getRandomValues works on plain http too, unlike randomUUID). */
const newBidId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * A bid is shown back before it is sent: its amount, in words of what it commits to; one above FAR times the least
 * acceptable amount asks a second time. Nothing is sent until the bidder confirms; a stage change cancels it.
 */
function propose(cents) {
  const offer = currentOffer();
  const wrong = outsideOffer(cents, offer);
  if (wrong) return answer(() => outsideOffer(cents, offer));
  const stage = stageOf(state.room.document);
  const far = offer && offer.from < offer.upTo && cents > FAR * offer.from;
  state.proposal = { cents, stage: stage?.name, type: stage?.type, far, asked: 1, from: offer?.from };
  answer('');
  drawConfirm();
}

function drawConfirm() {
  $('confirm').hidden = !state.proposal;
  if (!state.proposal) return;
  const amount = money(state.proposal.cents / 100);
  const text =
    state.proposal.asked === 2
      ? t('confirmFar')(
          amount,
          timesOf(state.proposal.cents, state.proposal.from, state.lang),
          money(state.proposal.from / 100),
        )
      : state.proposal.type === 'sealedbid'
        ? t('confirmSealed')(amount)
        : t('confirmBinding')(amount);
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = t('yes')(amount);
}

function confirmProposal() {
  if (!state.proposal) return;
  if (state.proposal.far && state.proposal.asked === 1) {
    state.proposal.asked = 2;
    return drawConfirm();
  }
  const { cents } = state.proposal;
  state.proposal = undefined;
  drawConfirm();
  sendBid(cents / 100);
}

function cancelProposal(text = '') {
  state.proposal = undefined;
  drawConfirm();
  answer(text);
}

function sendBid(amount) {
  const stage = state.room && stageOf(state.room.document);
  // The bid's own name (protocol `bidId`): a resend after a reconnect carries it, so the room answers it once.
  state.pending = { amount, stage: stage?.name, type: stage?.type, bidId: newBidId() };
  answer(() => t(state.socket?.readyState === WebSocket.OPEN ? 'sent' : 'queued'));
  transmit();
  draw();
}

function transmit() {
  if (state.pending && state.socket?.readyState === WebSocket.OPEN)
    state.socket.send(JSON.stringify({ action: 'bid', amount: state.pending.amount, bidId: state.pending.bidId }));
}

function onBidAnswer(message) {
  if (
    !state.pending ||
    (message.bidId ?? state.pending.bidId) !== state.pending.bidId ||
    message.amount !== state.pending.amount
  )
    return;
  const bid = state.pending;
  state.pending = undefined;
  if (message.outcome === 'refused') answer(() => explain(message, bid, state.room.document, state.me, currentOffer()));
  else if (message.outcome === 'sealed') answer(() => (message.amount === -1 ? t('withdrawn') : sealedAnswer()));
  else if (message.amount === -1) answer(() => t('kept')(money(dutchAmount(state.room.document))));
  else answer(() => `${t('accepted')}: ${money(message.amount)}`);
  draw();
}

/** A sealed bid's answer: "only you see it" while that is so; once the sealed bids are announced, that everyone does. */
function sealedAnswer() {
  const shown = state.room.document.results.some(
    (r) => r.bidderNumber === state.me?.bidderNumber && r.amount !== undefined,
  );
  return t(shown ? 'sealedShown' : 'sealed');
}

/**
 * After a reconnection, the bid whose answer was lost: the document shows it (the room took it: done), or its stage
 * is still on (sent again: the room judges it once more, and a bid already taken cannot be taken twice), or it is
 * dropped, said so.
 */
function settlePending() {
  if (!state.pending || !state.room) return;
  const shown =
    state.me?.ownBid?.amount === state.pending.amount || (state.pending.amount === -1 && state.me && !state.me.ownBid);
  if (shown) {
    const { amount } = state.pending;
    answer(() => `${t('confirmed')}: ${money(amount)}`);
    state.pending = undefined;
    return;
  }
  if (stageOf(state.room.document)?.name === state.pending.stage && !state.room.document.ended) {
    answer(() => t('resent'));
    return transmit();
  }
  state.pending = undefined;
  answer(() => t('dropped'));
}

// ------------------------------------------------------------------------------------------------ connection

async function sessionQuery() {
  const query = new URLSearchParams({ auction_id: auctionId });
  const res = await fetch(`${base}/session`, { credentials: 'same-origin', cache: 'no-store' });
  if (res.ok) {
    const session = await res.json();
    if (session.token) query.set('token', session.token);
  }
  return query;
}

async function connect() {
  let query;
  try {
    query = await sessionQuery();
  } catch {
    return retry();
  }
  // A bidder needs their own part of each document and the answers to their bids: the room socket. An observer has
  // nothing to say: the broadcast.
  if (!query.has('token') && eventsAuth) return observer.watch();
  const ws = new WebSocket(`${socketUrl}?${query}`);
  state.socket = ws;
  let settled = false;
  ws.onopen = () => {
    ws.send(JSON.stringify({ action: 'resume' }));
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'room') {
      // Documents come from more than one sender (each change's fan-out, the answer to resume, a bot beside a timer),
      // so an older one may arrive after a newer one: it never replaces it (the end would be lost for good).
      if (!state.room || message.document.version >= state.room.document.version) {
        state.room = message;
        state.me = message.document.me;
        syncClock(message.document.serverTime);
      }
      state.attempts = 0;
      setConnection('online');
      if (!settled) {
        settled = true;
        settlePending();
      }
      draw();
    } else if (message.type === 'bid') onBidAnswer(message);
    else if (message.type === 'pong') syncClock(message.serverTime);
  };
  ws.onclose = () => {
    if (state.socket !== ws) return;
    retry();
  };
}

// ------------------------------------------------------------------------------------------------ broadcast

/** A room message from the broadcast or a read: shown as the room, to an observer. */
function show(message) {
  state.room = message;
  state.me = undefined;
  syncClock(message.document.serverTime);
  state.attempts = 0;
  setConnection('online');
  draw();
}

const observer = broadcast(state, {
  url: eventsUrl,
  auth: eventsAuth,
  channel: `/rooms/${auctionId}`,
  newId: newBidId,
  read: () => readRoom(`${socketUrl}?${new URLSearchParams({ auction_id: auctionId })}`),
  show,
  online: () => setConnection('online'),
  subscribed: () => {
    state.attempts = 0;
  },
  lost: () => retry(),
});

function retry() {
  state.attempts += 1;
  setConnection('reconnecting', state.attempts);
  setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(state.attempts, 5)));
}

// Keeps the connection alive (API Gateway closes one idle for 10 minutes) and the clock in step with the server's.
setInterval(() => {
  if (state.socket?.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify({ action: 'ping' }));
}, 30_000);
setInterval(tick, 250);

// ------------------------------------------------------------------------------------------------ controls

$('lang').addEventListener('click', () => {
  state.lang = state.lang === 'uk' ? 'en' : 'uk';
  localStorage.setItem('room-lang', state.lang);
  draw();
});
$('bid-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const parsed = amountOf($('bid-amount').value);
  if (parsed.error) return cancelProposal(parsed.error);
  propose(parsed.cents);
});
$('bid-accept').addEventListener('click', () => {
  const offer = currentOffer();
  if (offer) propose(offer.from);
});
$('bid-raise').addEventListener('click', () => {
  const offer = currentOffer();
  if (!offer) return;
  const input = $('bid-amount');
  const typed = parseAmount(input.value, state.lang);
  input.value = plain(nextAbove(typed.cents ?? offer.from - 1, offer));
  input.focus();
});
$('bid-withdraw').addEventListener('click', () => {
  cancelProposal();
  sendBid(-1);
});
// A new amount typed: the answer to the previous one (a refusal, say) no longer applies to what the field shows.
$('bid-amount').addEventListener('input', () => {
  if (!state.pending) answer('');
});
$('confirm-yes').addEventListener('click', confirmProposal);
$('confirm-no').addEventListener('click', () => cancelProposal());

drawStatic();
setConnection('connecting');
connect();
