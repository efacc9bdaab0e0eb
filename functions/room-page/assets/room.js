// The auction room page (functions/room-page/page.ts is its shell): it follows the room over its WebSocket
// (functions/room/protocol.schema.json), shows the room document as it comes, and sends a bidder's bids. The time shown
// is the server's (every document and pong carries it), never the browser's. A dropped connection is reconnected by
// itself, with a fresh session token, and the bid in flight is settled against the document: sent again, with the
// same bidId (the room answers a named bid once), only if the room does not show it and its stage is still on, so it
// is neither lost nor doubled.

const root = document.getElementById('room');
const auctionId = root.dataset.auction;
const base = root.dataset.base;
// The room's WebSocket: where the shell names it (AWS: the room stack's own host), else this host's /room (locally).
const socketUrl = root.dataset.socket ?? `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/room`;
const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------------------------------------ words

const WORDS = {
  uk: {
    auctionId: 'Ідентифікатор',
    organizer: 'Організатор',
    startValue: 'Стартова ціна',
    minimalStep: 'Мінімальний крок',
    role: 'Ви',
    observer: 'Спостерігач',
    timeLeft: 'Залишилось:',
    currentAmount: 'Поточна сума:',
    yourBid: 'Ваша ставка',
    amount: 'Сума',
    send: 'Надіслати',
    accept: 'Прийняти',
    raise: '+ крок',
    withdraw: 'Відкликати',
    results: 'Результати',
    bidder: 'Учасник',
    time: 'Час',
    stages: 'Етапи',
    connecting: 'З’єднання…',
    online: 'На зв’язку',
    reconnecting: (n) => `Зв’язок втрачено: перепідключення (спроба ${n})…`,
    notOpen: 'Аукціонна кімната ще не відкрита: очікуємо…',
    ended: 'Аукціон завершено',
    winner: 'Переможець',
    noWinner: 'Переможця немає',
    cancelled: 'Аукціон скасовано',
    waiting: 'Результати передаються до аукціону…',
    posted: 'Результати передано.',
    own: 'Ваша остання ставка:',
    sent: 'Ставку надіслано…',
    accepted: 'Ставку прийнято',
    sealed: 'Закриту ставку прийнято (бачите лише ви)',
    withdrawn: 'Закриту ставку відкликано',
    resent: 'Ставку надіслано повторно після перепідключення',
    confirmed: 'Ставку підтверджено після перепідключення',
    dropped: 'Ставку не надіслано: етап завершився до перепідключення',
    noAmount: 'Вкажіть суму',
    stage: {
      pause: 'Пауза',
      dutch: (n) => `Голландський етап, крок ${n}`,
      'pre-sealedbid': 'Очікування закритих ставок',
      sealedbid: 'Закриті ставки',
      'pre-bestbid': 'Очікування кращої ставки',
      bestbid: 'Краща ставка',
      english: (n) => `Раунд ${n}`,
      'pre-announcement': 'Підбиття підсумків',
      announcement: 'Оголошення результатів',
    },
    rule: {
      dutch: 'Натисніть «Прийняти», щоб погодитися на поточну суму голландського кроку.',
      sealedbid:
        'Закрита ставка, вища за суму голландського етапу; її бачите лише ви; до кінця етапу її можна змінити або відкликати.',
      bestbid:
        'Переможець голландського етапу: ставка щонайменше на 1% вища за найкращу закриту ставку, або «Відкликати», щоб лишити свою суму.',
      english: 'Прийміть мінімальну суму раунду або підніміть її на цілу кількість кроків.',
    },
    refusal: {
      observer: 'Ви спостерігач і не можете робити ставки',
      stage: 'Поточний етап не дозволяє ставки',
      amount: 'Сума не відповідає правилам етапу',
      'too-low': 'Занадто мала сума',
      'not-multiple': 'Сума має бути кратною мінімальному кроку',
      'dutch-winner': 'Переможець голландського етапу не робить закритих ставок',
      'not-dutch-winner': 'Кращу ставку робить лише переможець голландського етапу',
      'below-best-step': 'Ставка має бути щонайменше на 1% вищою за найкращу закриту',
      behind: 'Результати закритих ставок ще не оголошено: спробуйте за мить',
      busy: 'Інша ставка саме обробляється: спробуйте ще раз',
      closed: 'Аукціон скасовано',
      room: 'Аукціонна кімната не відкрита',
      'unknown-bidder': 'Ви не учасник цього аукціону',
      'no-amount': 'Вкажіть суму',
    },
    reason: {
      'no-dutch-bid': 'ніхто не прийняв голландську ціну',
      'too-few-sealed-results': 'замало ставок',
      finished: 'усі етапи пройдено',
      'no-bid-in-round': 'у раунді не було ставок',
      deadline: 'настав кінцевий час',
    },
  },
  en: {
    auctionId: 'Auction id',
    organizer: 'Organizer',
    startValue: 'Starting value',
    minimalStep: 'Minimal step',
    role: 'You are',
    observer: 'An observer',
    timeLeft: 'Time left:',
    currentAmount: 'Current amount:',
    yourBid: 'Your bid',
    amount: 'Amount',
    send: 'Send',
    accept: 'Accept',
    raise: '+ step',
    withdraw: 'Withdraw',
    results: 'Results',
    bidder: 'Bidder',
    time: 'Time',
    stages: 'Stages',
    connecting: 'Connecting…',
    online: 'Connected',
    reconnecting: (n) => `Connection lost: reconnecting (attempt ${n})…`,
    notOpen: 'The auction room is not open yet: waiting…',
    ended: 'The auction has ended',
    winner: 'Winner',
    noWinner: 'No winner',
    cancelled: 'The auction was cancelled',
    waiting: 'The results are being sent to the auction…',
    posted: 'The results were sent.',
    own: 'Your latest bid:',
    sent: 'Bid sent…',
    accepted: 'Bid accepted',
    sealed: 'Sealed bid accepted (only you see it)',
    withdrawn: 'Sealed bid withdrawn',
    resent: 'Bid sent again after reconnecting',
    confirmed: 'Bid confirmed after reconnecting',
    dropped: 'Bid not sent: its stage ended before the connection came back',
    noAmount: 'Enter an amount',
    stage: {
      pause: 'Pause',
      dutch: (n) => `Dutch step ${n}`,
      'pre-sealedbid': 'Before sealed bids',
      sealedbid: 'Sealed bids',
      'pre-bestbid': 'Before the best bid',
      bestbid: 'Best bid',
      english: (n) => `Round ${n}`,
      'pre-announcement': 'Counting',
      announcement: 'Announcement',
    },
    rule: {
      dutch: 'Press "Accept" to take the current Dutch step amount.',
      sealedbid: 'A sealed bid above the Dutch amount; only you see it; change or withdraw it until the stage ends.',
      bestbid: 'The Dutch winner only: at least 1% above the best sealed bid, or "Withdraw" to keep the Dutch amount.',
      english: "Accept the round's minimal amount or raise it by whole steps.",
    },
    refusal: {},
    reason: {
      'no-dutch-bid': 'nobody accepted a Dutch amount',
      'too-few-sealed-results': 'too few bids',
      finished: 'every stage was held',
      'no-bid-in-round': 'no bid in a round',
      deadline: 'the deadline came',
    },
  },
};

let lang = localStorage.getItem('room-lang') === 'en' ? 'en' : 'uk';
const t = (key) => WORDS[lang][key];

// ------------------------------------------------------------------------------------------------ state

let room; // the latest room message
let me; // the bidder's view, or undefined (an observer)
let offsetMs = 0; // server time minus browser time
let socket;
let attempts = 0;
let pending; // { amount, stage, resent } a bid sent and not yet answered
let lastAnswer = '';

/** An instant of the room (ISO with an offset, maybe microseconds) as epoch milliseconds. */
const instant = (text) => Date.parse(String(text).replace(/(\.\d{3})\d+/, '$1'));
const serverNow = () => Date.now() + offsetMs;
const syncClock = (serverTime) => {
  const at = instant(serverTime);
  if (Number.isFinite(at)) offsetMs = at - Date.now();
};

const money = (amount, currency = room?.document.value.currency ?? 'UAH') =>
  new Intl.NumberFormat(lang === 'uk' ? 'uk-UA' : 'en-GB', { style: 'currency', currency }).format(amount);
const clock = (text) =>
  new Date(instant(text)).toLocaleTimeString(lang === 'uk' ? 'uk-UA' : 'en-GB', { timeZone: 'Europe/Kyiv' });

/**
 * The current stage: the one the document names, or a later one whose start the server's clock has passed (stages
 * follow the clock; the room sends a new document when something changes, not at every boundary). Never past the end.
 */
function stageOf(doc) {
  let at = doc.currentStage - doc.stagesFrom;
  if (!doc.ended && !room?.closed)
    while (at + 1 < doc.stages.length && instant(doc.stages[at + 1].start) <= serverNow()) at += 1;
  return doc.stages[at];
}
function stageName(stage) {
  const words = t('stage');
  const number = /_(\d+)$/.exec(stage.name)?.[1];
  const word = words[stage.type] ?? stage.name;
  if (typeof word !== 'function') return word;
  return word(stage.type === 'dutch' ? Number(number) + 1 : Number(number ?? 1));
}
const labelOf = (doc, number) => doc.bidders.find((b) => b.bidderNumber === number)?.label ?? `#${number}`;

// ------------------------------------------------------------------------------------------------ drawing

function setConnection(text, kind) {
  const el = $('connection');
  el.textContent = text;
  el.dataset.state = kind;
}

function drawStatic() {
  document.documentElement.lang = lang;
  $('lang').textContent = lang === 'uk' ? 'EN' : 'UA';
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
}

function draw() {
  drawStatic();
  if (!room) return;
  const doc = room.document;
  const stage = stageOf(doc);
  $('title').textContent = doc.title || doc.auctionId;
  document.title = doc.title || doc.auctionId;
  $('auction-id').textContent = doc.auctionId;
  $('organizer').textContent = doc.procuringEntityName ?? '—';
  $('start-value').textContent = money(doc.value.amount, doc.value.currency);
  $('minimal-step').textContent = doc.minimalStep?.amount ? money(doc.minimalStep.amount) : '—';
  $('role').textContent = me ? me.label : t('observer');
  $('stage-name').textContent = stage ? stageName(stage) : '—';
  // The stage's own name and type, for a reader that does not read words (tests, assistive styling).
  $('stage-name').dataset.stage = stage?.name ?? '';
  $('stage-name').dataset.type = stage?.type ?? '';
  root.dataset.version = String(doc.version);
  root.dataset.ended = doc.ended ? (doc.namesRevealed ? 'revealed' : 'ended') : '';
  const best = doc.results[0];
  const current = stage?.amount ?? best?.amount ?? doc.value.amount;
  $('current-amount').textContent = money(current);
  drawStages(doc);
  drawResults(doc);
  drawEnd(doc);
  drawBidding(doc, stage);
  tick();
}

function drawStages(doc) {
  const list = $('stages');
  list.replaceChildren(
    ...doc.stages.map((stage) => {
      const li = document.createElement('li');
      const current = stageOf(doc)?.index ?? doc.currentStage;
      const isCurrent = stage.index === current;
      li.className = isCurrent ? 'current' : stage.index < current ? 'past' : '';
      if (isCurrent) li.setAttribute('aria-current', 'step');
      const amount = stage.amount !== undefined ? ` · ${money(stage.amount)}` : '';
      li.textContent = `${clock(stage.start)} ${stageName(stage)}${amount}`;
      return li;
    }),
  );
  list.querySelector('.current')?.scrollIntoView?.({ block: 'nearest' });
}

function drawResults(doc) {
  const body = $('results').tBodies[0];
  body.replaceChildren(
    ...doc.results.map((r) => {
      const tr = document.createElement('tr');
      if (me && r.bidderNumber === me.bidderNumber) tr.className = 'mine';
      for (const text of [labelOf(doc, r.bidderNumber), money(r.amount), clock(r.date)]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }),
  );
}

function drawEnd(doc) {
  const el = $('ended');
  const lines = [];
  if (room.closed) lines.push(t('cancelled'));
  else if (doc.ended) {
    lines.push(`${t('ended')}: ${t('reason')[doc.ended.reason] ?? doc.ended.reason}.`);
    const winner = doc.results[0];
    lines.push(
      winner ? `${t('winner')}: ${labelOf(doc, winner.bidderNumber)} — ${money(winner.amount)}` : t('noWinner'),
    );
    if (room.results) lines.push(t(room.results));
  }
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

/** The bid controls the current stage allows this bidder, with the stage's rule in words. */
function drawBidding(doc, stage) {
  $('bidding').hidden = !me;
  if (!me) return;
  const type = stage?.type;
  const open = me.mayBid && !doc.ended && !room.closed && ['dutch', 'sealedbid', 'bestbid', 'english'].includes(type);
  $('bid-rule').textContent = open ? t('rule')[type] : stage ? `${stageName(stage)}.` : '';
  $('own-bid').textContent = me.ownBid ? `${t('own')} ${money(me.ownBid.amount)} (${clock(me.ownBid.date)})` : '';
  const show = (id, visible) => {
    $(id).hidden = !visible;
    $(id).disabled = !visible || pending !== undefined;
  };
  show('bid-accept', open && (type === 'dutch' || type === 'english'));
  show('bid-raise', open && type === 'english');
  show('bid-withdraw', open && (type === 'sealedbid' || type === 'bestbid') && me.ownBid !== undefined);
  const field = open && type !== 'dutch';
  $('bid-label').hidden = !field;
  show('bid-amount', field);
  show('bid-send', field);
  const input = $('bid-amount');
  if (field && type === 'english') {
    input.step = String(doc.minimalStep?.amount ?? 0.01);
    input.min = String(stage.amount);
    if (!input.value || Number(input.value) < stage.amount) input.value = String(stage.amount);
  } else {
    input.step = '0.01';
    input.min = '0';
  }
  $('bid-answer').textContent = lastAnswer;
}

let shownStage;
function tick() {
  if (!room) return;
  const stage = stageOf(room.document);
  if (stage?.name !== shownStage) {
    shownStage = stage?.name;
    return draw(); // a boundary passed on the server's clock: the stage, its amount and the controls change
  }
  const end = stage?.end && !room.document.ended ? instant(stage.end) : undefined;
  if (end === undefined) {
    $('countdown').textContent = '—';
    return;
  }
  const left = Math.max(0, Math.round((end - serverNow()) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  const two = (n) => String(n).padStart(2, '0');
  $('countdown').textContent = h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
  $('countdown').dateTime = `PT${left}S`;
}

// ------------------------------------------------------------------------------------------------ bids

function answer(text) {
  lastAnswer = text;
  $('bid-answer').textContent = text;
}

/** 32 random hex digits (getRandomValues works on plain http too, unlike randomUUID). */
const newBidId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

function sendBid(amount) {
  if (!Number.isFinite(amount)) return answer(t('noAmount'));
  const stage = room && stageOf(room.document);
  // The bid's own name (protocol `bidId`): a resend after a reconnect carries it, so the room answers it once.
  pending = { amount, stage: stage?.name, bidId: newBidId() };
  answer(t('sent'));
  transmit();
  draw();
}

function transmit() {
  if (pending && socket?.readyState === WebSocket.OPEN)
    socket.send(JSON.stringify({ action: 'bid', amount: pending.amount, bidId: pending.bidId }));
}

function onBidAnswer(message) {
  if (!pending || (message.bidId ?? pending.bidId) !== pending.bidId || message.amount !== pending.amount) return;
  pending = undefined;
  if (message.outcome === 'refused') {
    const words = lang === 'uk' ? WORDS.uk.refusal[message.code] : undefined;
    answer(words ?? message.message ?? message.code);
  } else if (message.outcome === 'sealed') answer(message.amount === -1 ? t('withdrawn') : t('sealed'));
  else answer(`${t('accepted')}: ${money(message.amount)}`);
  draw();
}

/**
 * After a reconnection, the bid whose answer was lost: the document shows it (the room took it: done), or its stage
 * is still on (sent again: the room judges it once more, and a bid already taken cannot be taken twice), or it is
 * dropped, said so.
 */
function settlePending() {
  if (!pending || !room) return;
  const shown = me?.ownBid?.amount === pending.amount || (pending.amount === -1 && me && !me.ownBid);
  if (shown) {
    answer(`${t('confirmed')}: ${money(pending.amount)}`);
    pending = undefined;
    return;
  }
  if (stageOf(room.document)?.name === pending.stage && !room.document.ended) {
    answer(t('resent'));
    return transmit();
  }
  pending = undefined;
  answer(t('dropped'));
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
  const ws = new WebSocket(`${socketUrl}?${query}`);
  socket = ws;
  let settled = false;
  ws.onopen = () => {
    ws.send(JSON.stringify({ action: 'resume' }));
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'room') {
      room = message;
      me = message.document.me;
      syncClock(message.document.serverTime);
      attempts = 0;
      setConnection(t('online'), 'online');
      if (!settled) {
        settled = true;
        settlePending();
      }
      draw();
    } else if (message.type === 'bid') onBidAnswer(message);
    else if (message.type === 'pong') syncClock(message.serverTime);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    retry();
  };
}

function retry() {
  attempts += 1;
  setConnection(room ? t('reconnecting')(attempts) : t('notOpen'), 'reconnecting');
  setTimeout(connect, Math.min(5000, 250 * 2 ** Math.min(attempts, 5)));
}

// Keeps the connection alive (API Gateway closes one idle for 10 minutes) and the clock in step with the server's.
setInterval(() => {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ action: 'ping' }));
}, 30_000);
setInterval(tick, 250);

// ------------------------------------------------------------------------------------------------ controls

$('lang').addEventListener('click', () => {
  lang = lang === 'uk' ? 'en' : 'uk';
  localStorage.setItem('room-lang', lang);
  draw();
});
$('bid-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const text = $('bid-amount').value.trim().replace(',', '.');
  sendBid(text === '' ? Number.NaN : Number(text));
});
$('bid-accept').addEventListener('click', () => {
  const stage = room && stageOf(room.document);
  if (stage?.amount !== undefined) sendBid(stage.amount);
});
$('bid-raise').addEventListener('click', () => {
  const step = room?.document.minimalStep?.amount ?? 0;
  const input = $('bid-amount');
  input.value = String(Math.round(((Number(input.value) || 0) + step) * 100) / 100);
  input.focus();
});
$('bid-withdraw').addEventListener('click', () => sendBid(-1));

drawStatic();
setConnection(t('connecting'), 'connecting');
connect();
