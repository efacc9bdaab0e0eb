// The auction room page (functions/room-page/page.ts is its shell): a bidder follows the room over its WebSocket
// (functions/room/protocol.schema.json), an observer through the broadcast (AppSync Events' protocol: one publish per
// change, fanned out by the service; docs/DESIGN.md), and the page shows the room document as it comes and sends a
// bidder's bids. The time shown is the server's (every document and pong carries it), never the browser's. A dropped
// connection is reconnected by itself, with a fresh session token, and the bid in flight is settled against the
// document: sent again, with the same bidId (the room answers a named bid once), only if the room does not show it
// and its stage is still on, so it is neither lost nor doubled.

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

// ------------------------------------------------------------------------------------------------ words

// "у 1 раз", "у 2 рази", "у 5 разів", "у 2,5 раза": the word agrees with the number (Intl.PluralRules' categories).
const TIMES_UK = { one: 'раз', few: 'рази', many: 'разів', other: 'раза' };

const WORDS = {
  uk: {
    auctionId: 'Ідентифікатор',
    organizer: 'Організатор',
    startValue: 'Стартова ціна',
    minimalStep: 'Мінімальний крок',
    role: 'Ви',
    observer: 'Спостерігач',
    auction: 'Аукціон',
    timeLeft: 'Залишилось:',
    next: (name, at) => `Далі: ${name} о ${at}, через`,
    startsAt: (at) => `Початок о ${at}, через`,
    leader: 'Лідер:',
    noLeader: 'ставок ще немає',
    you: 'ви',
    leastFrom: 'Найменша прийнятна ставка:',
    leastNext: 'Наступний етап, ставки:',
    from: (amount) => `від ${amount}`,
    stepPrice: 'Ціна кроку:',
    bidderN: (n) => `Учасник №${n}`,
    noBid: 'без ставки',
    onlyYou: 'закрита, бачите лише ви',
    leads: 'лідер',
    youLead: 'ви лідер',
    dutchWinner: 'переможець голландського етапу',
    sealedWinner: 'найкраща закрита ставка',
    skipped: 'пропущено',
    bidBy: (who, amount, at) => `${who}: ${amount} о ${at}`,
    queued: 'Немає зв’язку: ставку буде надіслано, щойно зв’язок відновиться…',
    yourBid: 'Ваша ставка',
    amount: 'Сума',
    send: 'Надіслати',
    accept: 'Прийняти',
    raise: '+ крок',
    withdraw: 'Відкликати',
    keepDutch: 'Лишити суму голландського етапу',
    results: 'Результати',
    bidder: 'Учасник',
    time: 'Час',
    stages: 'Етапи і ставки',
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
    sealedShown: 'Закриту ставку прийнято; закриті ставки оголошено, її бачать усі',
    kept: (amount) => `Лишається ваша сума голландського етапу: ${amount}`,
    withdrawn: 'Закриту ставку відкликано',
    resent: 'Ставку надіслано повторно після перепідключення',
    confirmed: 'Ставку підтверджено після перепідключення',
    dropped: 'Ставку не надіслано: етап завершився до перепідключення',
    noAmount: 'Вкажіть суму',
    cancel: 'Скасувати',
    badAmount: 'Сума: лише цифри, пробіли як роздільники тисяч і кома (або крапка) перед копійками',
    ambiguous: (text) =>
      `«${text}» можна прочитати двояко: пишіть тисячі через пробіл (102 000) і не більше двох знаків після коми (102 000,50)`,
    decimals: 'Не більше двох знаків після коми',
    below: (from) => `Сума замала: щонайменше ${from}`,
    above: (upTo) => `Сума завелика: щонайбільше ${upTo}`,
    notStep: (step, lower, higher) => `Сума має бути кратною кроку ${step}: наприклад, ${lower} або ${higher}`,
    confirmBinding: (amount) => `Ставка ${amount}. Прийнята ставка обов’язкова. Надіслати?`,
    confirmSealed: (amount) => `Закрита ставка ${amount}. До кінця етапу її можна змінити або відкликати. Надіслати?`,
    confirmFar: (amount, times, from) =>
      `Увага: ${amount} — це у ${times.text} ${TIMES_UK[times.plural]} більше за найменшу прийнятну суму (${from}). Ви впевнені?`,
    yes: (amount) => `Так, ${amount}`,
    changed: 'Етап змінився: ставку не надіслано, перевірте суму',
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
      dutch: ({ from }) => `Натисніть «Прийняти», щоб купити за ціною кроку: ${from}. З кожним кроком ціна знижується.`,
      sealedbid: ({ from }) =>
        `Закрита ставка від ${from} (вище суми голландського етапу); її бачите лише ви; до кінця етапу її можна змінити або відкликати.`,
      bestbid: ({ from, step, dutch }) =>
        `Ви переможець голландського етапу: ставка від ${from} (найкраща закрита ставка плюс 1 % стартової ціни, ${step}), або «Лишити суму голландського етапу» (${dutch}).`,
      english: ({ from, step, next }) =>
        `Прийміть суму раунду (${from}) або запропонуйте більшу, кратну кроку ${step}: наприклад, ${next} («+ крок»).`,
    },
    wait: {
      pause: (next, at) => `Пауза. Далі: ${next} о ${at}.`,
      dutchWinner: (amount, at) =>
        `Ви перемогли на голландському етапі (${amount}). Закриті ставки роблять інші учасники; о ${at} ви зможете підвищити свою ставку.`,
      notDutchWinner: (at) => `Кращу ставку робить лише переможець голландського етапу. Результати о ${at}.`,
      over: (at) => `Ставки завершено. Результати о ${at}.`,
    },
    beaten: (who, amount, next) => `${who} запропонував ${amount} раніше: раунд закрито. ${next}`,
    nextRound: (at, from) => `Наступний раунд о ${at}, ставки від ${from}.`,
    stepGone: (price) => `Крок завершився раніше, ніж надійшла ваша згода. Ціна зараз: ${price}.`,
    refusal: {
      observer: 'Ви спостерігач і не можете робити ставки',
      stage: 'Поточний етап не дозволяє ставки',
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
      'too-high': 'Сума перевищує межу: у 100 разів більше за стартову ціну',
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
    auction: 'Auction',
    timeLeft: 'Time left:',
    next: (name, at) => `Next: ${name} at ${at}, in`,
    startsAt: (at) => `Starts at ${at}, in`,
    leader: 'Leading:',
    noLeader: 'no bid yet',
    you: 'you',
    leastFrom: 'Least acceptable bid:',
    leastNext: 'Next stage, bids:',
    from: (amount) => `from ${amount}`,
    stepPrice: 'Step price:',
    bidderN: (n) => `Bidder #${n}`,
    noBid: 'no bid',
    onlyYou: 'sealed, only you see it',
    leads: 'leads',
    youLead: 'you lead',
    dutchWinner: 'Dutch winner',
    sealedWinner: 'best sealed bid',
    skipped: 'skipped',
    bidBy: (who, amount, at) => `${who}: ${amount} at ${at}`,
    queued: 'Bid queued: no connection, it is sent as soon as the connection is back…',
    yourBid: 'Your bid',
    amount: 'Amount',
    send: 'Send',
    accept: 'Accept',
    raise: '+ step',
    withdraw: 'Withdraw',
    keepDutch: 'Keep the Dutch amount',
    results: 'Results',
    bidder: 'Bidder',
    time: 'Time',
    stages: 'Stages and bids',
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
    sealedShown: 'Sealed bid accepted; the sealed bids are announced, everyone sees it',
    kept: (amount) => `Your Dutch amount stands: ${amount}`,
    withdrawn: 'Sealed bid withdrawn',
    resent: 'Bid sent again after reconnecting',
    confirmed: 'Bid confirmed after reconnecting',
    dropped: 'Bid not sent: its stage ended before the connection came back',
    noAmount: 'Enter an amount',
    cancel: 'Cancel',
    badAmount: 'Amount: digits only, commas or spaces between thousands, and a point before the kopecks',
    ambiguous: (text) =>
      `"${text}" can be read two ways: separate thousands with a comma or a space (102,000) and write at most two decimals after a point (102,000.50)`,
    decimals: 'At most two decimals',
    below: (from) => `Too low: at least ${from}`,
    above: (upTo) => `Too high: at most ${upTo}`,
    notStep: (step, lower, higher) => `The amount must be a multiple of the step ${step}: e.g. ${lower} or ${higher}`,
    confirmBinding: (amount) => `Bid ${amount}. An accepted bid is binding. Send it?`,
    confirmSealed: (amount) => `Sealed bid ${amount}. You can change or withdraw it until the stage ends. Send it?`,
    confirmFar: (amount, times, from) =>
      `Careful: ${amount} is ${times.text} times the least acceptable amount (${from}). Are you sure?`,
    yes: (amount) => `Yes, ${amount}`,
    changed: 'The stage changed: the bid was not sent, check the amount',
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
      dutch: ({ from }) => `Press "Accept" to buy at the step's price: ${from}. The price falls at every step.`,
      sealedbid: ({ from }) =>
        `A sealed bid from ${from} (above the Dutch amount); only you see it; change or withdraw it until the stage ends.`,
      bestbid: ({ from, step, dutch }) =>
        `You won the Dutch part: bid from ${from} (the best sealed bid plus 1 % of the starting value, ${step}), or "Keep the Dutch amount" (${dutch}).`,
      english: ({ from, step, next }) =>
        `Accept the round's amount (${from}) or bid more, a multiple of the step ${step}: e.g. ${next} ("+ step").`,
    },
    wait: {
      pause: (next, at) => `A pause. Next: ${next} at ${at}.`,
      dutchWinner: (amount, at) =>
        `You won the Dutch part (${amount}). The other bidders place sealed bids now; at ${at} you may raise your bid.`,
      notDutchWinner: (at) => `Only the Dutch winner bids now. The results at ${at}.`,
      over: (at) => `The bidding is over. The results at ${at}.`,
    },
    beaten: (who, amount, next) => `${who} bid ${amount} first: the round is closed. ${next}`,
    nextRound: (at, from) => `The next round at ${at}, bids from ${from}.`,
    stepGone: (price) => `The step ended before your accept arrived. The price now: ${price}.`,
    refusal: {
      stage: 'The current stage takes no bids',
      'not-dutch-winner': 'Only the Dutch winner places the best bid',
      'dutch-winner': 'The Dutch winner places no sealed bid',
      'too-high': 'The amount is above the limit: 100 times the starting value',
    },
    reason: {
      'no-dutch-bid': 'nobody accepted a Dutch amount',
      'too-few-sealed-results': 'too few bids',
      finished: 'every stage was held',
      'no-bid-in-round': 'no bid in a round',
      deadline: 'the deadline came',
    },
  },
};

// The language chosen on the page before, else the browser's: Ukrainian for a Ukrainian browser, English otherwise.
const browserLang = (navigator.languages?.[0] ?? navigator.language ?? 'uk').toLowerCase();
let lang = localStorage.getItem('room-lang') ?? (browserLang.startsWith('uk') ? 'uk' : 'en');
const t = (key) => WORDS[lang][key];

// ------------------------------------------------------------------------------------------------ state

let room; // the latest room message
let me; // the bidder's view, or undefined (an observer)
let offsetMs = 0; // server time minus browser time
let socket;
let attempts = 0;
let pending; // { amount, stage, resent } a bid sent and not yet answered
let lastAnswer = () => ''; // the bid answer, in words of the current language and document
let connection = { kind: 'connecting' };

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
  // The stage's own number, as the protocol, the CLI and docs/api.md name it: dutch_40 is "Dutch step 40".
  return word(Number(number ?? 1));
}
/** A bidder's label: the name once revealed, "Bidder #N" in the page's language before. */
const labelOf = (doc, number) =>
  (doc.namesRevealed && doc.bidders.find((b) => b.bidderNumber === number)?.label) || t('bidderN')(number);
/** An instant as Kyiv time, with the date when it is not today's (a room opened the day before its auction). */
function when(text) {
  const day = (at) => new Date(at).toLocaleDateString('uk-UA', { timeZone: 'Europe/Kyiv' });
  const at = instant(text);
  const date =
    day(at) === day(serverNow())
      ? ''
      : `${new Date(at).toLocaleDateString(lang === 'uk' ? 'uk-UA' : 'en-GB', { timeZone: 'Europe/Kyiv' })} `;
  return `${date}${clock(text)}`;
}
/** The stage after `stage` in the document, if it has one. */
const nextStage = (doc, stage) => doc.stages.find((s) => s.index === stage.index + 1);
/** The first stage of `type` in the document. */
const stageOfType = (doc, type) => doc.stages.find((s) => s.type === type);
const BIDDING = ['dutch', 'sealedbid', 'bestbid', 'english'];

// ------------------------------------------------------------------------------------------------ drawing

function setConnection(kind, attempt) {
  connection = { kind, attempt };
  drawConnection();
}

function drawConnection() {
  const el = $('connection');
  const { kind, attempt } = connection;
  el.textContent =
    kind === 'reconnecting'
      ? room
        ? t('reconnecting')(attempt)
        : t('notOpen')
      : t(kind === 'online' ? 'online' : 'connecting');
  el.dataset.state = kind;
}

function drawStatic() {
  document.documentElement.lang = lang;
  $('lang').textContent = lang === 'uk' ? 'EN' : 'UA';
  for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.dataset.t);
  drawConnection();
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
  $('minimal-step').textContent = doc.step ? money(doc.step) : '—';
  $('role').textContent = me ? labelOf(doc, me.bidderNumber) : t('observer');
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
  drawEnd(doc);
  drawBidding(doc, stage);
  tick();
}

/** Who leads now (the best result the room shows), and whether it is you. */
function drawLeader(doc) {
  const best = doc.results[0];
  $('leader-line').hidden = room.closed === true;
  const mine = best && me && best.bidderNumber === me.bidderNumber;
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
  const ahead = !now && doc.offer && !doc.ended && !room.closed ? doc.offer : undefined;
  const offerStage = now ? stage : ahead && doc.stages.find((s) => s.name === ahead.stage);
  const theirs = !me || mayBidIn(doc, offerStage);
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
      const mine = me && r.bidderNumber === me.bidderNumber;
      if (mine) tr.className = 'mine';
      // A sealed bid is shown to its bidder alone: their row says it, never "no bid" under "Your latest bid".
      const ownSealed = mine && r.amount === undefined && me.ownBid !== undefined;
      const marks = [
        i === 0 && r.amount !== undefined ? (mine ? t('youLead') : t('leads')) : mine ? t('you') : '',
        r.dutchWinner ? t('dutchWinner') : '',
        r.sealedbidWinner ? t('sealedWinner') : '',
        ownSealed ? t('onlyYou') : '',
      ].filter(Boolean);
      const cells = [
        [labelOf(doc, r.bidderNumber), marks],
        [r.amount !== undefined ? money(r.amount) : ownSealed ? money(me.ownBid.amount) : t('noBid'), []],
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

/** The stage's rule in words, from the room's offer: what this bidder may bid now and how. */
function ruleOf(doc, stage) {
  const offer = currentOffer();
  const words = t('rule')[stage.type];
  if (!offer || !words) return '';
  const dutch = doc.results.find((r) => r.dutchWinner);
  return words({
    from: money(offer.from / 100),
    step: doc.step ? money(doc.step) : '—',
    next: money(nextAbove(offer.from, offer) / 100),
    dutch: dutch ? money(dutch.amount) : '—',
  });
}

/** Why this bidder may not bid now, and what comes next, when. */
function waitOf(doc, stage) {
  const w = t('wait');
  const dutch = doc.results.find((r) => r.dutchWinner);
  const best = stageOfType(doc, 'bestbid');
  const results = stageOfType(doc, 'announcement') ?? stageOfType(doc, 'pre-announcement');
  if (
    dutch &&
    me &&
    dutch.bidderNumber === me.bidderNumber &&
    ['pre-sealedbid', 'sealedbid', 'pre-bestbid'].includes(stage.type) &&
    best
  )
    return w.dutchWinner(money(dutch.amount), when(best.start));
  if (['bestbid', 'pre-bestbid'].includes(stage.type) && results) return w.notDutchWinner(when(results.start));
  const next = nextStage(doc, stage);
  if (next && BIDDING.includes(next.type)) return w.pause(stageName(next), when(next.start));
  if (results && !doc.ended) return w.over(when(results.start));
  return '';
}

/**
 * Whether this bidder may bid in `stage`: the document says so for the stage it was made in and the next one, as the
 * page's clock may pass into that before the next document arrives (the Dutch winner would read "only the Dutch winner
 * bids now" at the start of the best bid).
 */
function mayBidIn(doc, stage) {
  if (!me || !stage) return false;
  if (stage.index === doc.currentStage) return me.mayBid;
  return stage.index === doc.currentStage + 1 && me.mayBidNext === true;
}

/** The bid controls the current stage allows this bidder, with the stage's rule in words. */
function drawBidding(doc, stage) {
  // Once the room ends (or is cancelled) no stage is on: its answer, rule and pending confirmation go with it, and with
  // nothing left to do or say the card goes too (the results show the bidder's own line).
  const over = (doc.ended || room.closed) && !pending;
  if (over) {
    lastAnswer = () => '';
    proposal = undefined;
  }
  $('bidding').hidden = !me || over;
  if (!me) return;
  const type = stage?.type;
  const open = mayBidIn(doc, stage) && !doc.ended && !room.closed && BIDDING.includes(type);
  $('bid-rule').textContent = open ? ruleOf(doc, stage) : stage && !doc.ended && !room.closed ? waitOf(doc, stage) : '';
  $('bid-rule').hidden = $('bid-rule').textContent === '';
  $('own-bid').textContent = me.ownBid ? `${t('own')} ${money(me.ownBid.amount)} (${clock(me.ownBid.date)})` : '';
  $('own-bid').hidden = !me.ownBid;
  const show = (id, visible) => {
    $(id).hidden = !visible;
    $(id).disabled = !visible || pending !== undefined;
  };
  show('bid-accept', open && (type === 'dutch' || type === 'english'));
  show('bid-raise', open && type === 'english');
  show('bid-withdraw', open && (type === 'sealedbid' || type === 'bestbid') && me.ownBid !== undefined);
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
  if (field && type === 'english' && offer && !(parseAmount(input.value).cents >= offer.from))
    input.value = plain(offer.from);
  $('bid-answer').textContent = lastAnswer();
  drawConfirm();
}

let shownStage;
function tick() {
  if (!room) return;
  const doc = room.document;
  const stage = stageOf(doc);
  if (stage?.name !== shownStage) {
    shownStage = stage?.name;
    if (proposal && proposal.stage !== stage?.name) cancelProposal(t('changed'));
    return draw(); // a boundary passed on the server's clock: the stage, its amount and the controls change
  }
  // A bidding stage counts down to its end; any other to the next stage (or, before it all, to the start).
  const over = doc.ended || room.closed || !stage;
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
  const left = Math.max(0, Math.round((instant(target) - serverNow()) / 1000));
  const h = Math.floor(left / 3600);
  const m = Math.floor((left % 3600) / 60);
  const sec = left % 60;
  const two = (n) => String(n).padStart(2, '0');
  $('countdown').textContent = h ? `${h}:${two(m)}:${two(sec)}` : `${two(m)}:${two(sec)}`;
  $('countdown').dateTime = `PT${left}S`;
}

// ------------------------------------------------------------------------------------------------ amounts

/** An amount in cents as the page writes it in an input: `102 000,00` (uk), `102,000.00` (en). */
const plain = (cents) =>
  new Intl.NumberFormat(lang === 'uk' ? 'uk-UA' : 'en-GB', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
const toCents = (amount) => Math.round(amount * 100);

/**
 * A typed amount in cents, or `{ error }`, read by the page's language, so that every form the page shows is taken:
 * spaces (no-break and narrow no-break too) separate thousands; on an English page a lone "," does too ("102,000",
 * as en-GB writes it); otherwise "," or "." is the decimal mark, and the other mark separates thousands when both are
 * used ("1,234.56", "1.234,56"); at most two decimals. What could be read two ways ("102,000" on a Ukrainian page, where
 * the comma is the decimal mark; "102.000" anywhere) is refused, never guessed: a slip of the mark must never change
 * the amount.
 */
// The mark each language writes between thousands besides a space (Intl: en-GB "101,000.00", uk-UA "101 000,00").
const GROUP_MARK = { en: ',', uk: undefined };

function parseAmount(typed) {
  const text = typed.trim().replace(/[\s\u00a0\u202f]+/g, ' ');
  if (text === '') return { error: t('noAmount') };
  if (!/^[0-9][0-9 ,.]*$/.test(text)) return { error: t('badAmount') };
  const marks = text.replace(/[0-9 ]/g, '');
  const at = Math.max(text.lastIndexOf(','), text.lastIndexOf('.'));
  let whole = text;
  let fraction = '';
  let group = ' ';
  if (new Set(marks).size === 2) {
    // Both marks: the last one is the decimal mark, the other separates thousands.
    if (marks.indexOf(text[at]) !== marks.length - 1) return { error: t('ambiguous')(typed.trim()) };
    [whole, fraction, group] = [text.slice(0, at), text.slice(at + 1), text[at] === ',' ? '.' : ','];
  } else if (marks === GROUP_MARK[lang]) {
    group = marks; // "102,000" on an English page: the thousands as the page itself writes them
  } else if (marks.length === 1) {
    fraction = text.slice(at + 1);
    whole = text.slice(0, at);
    // "102,000" is 102 with three decimals or 102 000: refused, whichever was meant.
    if (/^\d{3}$/.test(fraction) && /^\d{1,3}$/.test(whole)) return { error: t('ambiguous')(typed.trim()) };
  } else if (marks.length > 1) group = marks[0]; // "1.234.567": groups only
  if (!/^\d*$/.test(fraction)) return { error: t('badAmount') };
  if (fraction.length > 2) return { error: t('decimals') };
  const groups = whole.split(group === ' ' ? ' ' : new RegExp(`[ \\${group}]`));
  const grouped =
    groups.length === 1 || (/^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((g) => /^\d{3}$/.test(g)));
  if (!grouped || !/^\d+$/.test(groups.join(''))) return { error: t('ambiguous')(typed.trim()) };
  const cents = Number(groups.join('')) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? { cents } : { error: t('above')(money(currentOffer()?.upTo ?? 0)) };
}

/**
 * What a bid may be now, as the room's rules give it (the document's `offer`, computed by the same rules that judge
 * the bid: functions/domain/room), in cents. A Dutch step the page reached by the clock asks exactly its amount.
 */
function currentOffer() {
  if (!room) return undefined;
  const doc = room.document;
  const stage = stageOf(doc);
  const offer = doc.offer;
  if (offer && offer.stage === stage?.name)
    return {
      from: toCents(offer.from),
      upTo: toCents(offer.upTo),
      multipleOf: offer.multipleOf && toCents(offer.multipleOf),
    };
  if (stage?.type === 'dutch' && !doc.ended) return { from: toCents(stage.amount), upTo: toCents(stage.amount) };
  return undefined;
}

/** Why `cents` is not a bid the offer takes, or undefined when it is. */
function outsideOffer(cents, offer) {
  if (!offer) return undefined;
  if (cents < offer.from) return t('below')(money(offer.from / 100));
  if (cents > offer.upTo) return t('above')(money(offer.upTo / 100));
  const m = offer.multipleOf;
  if (m && cents !== offer.from && cents % m !== 0) {
    const lower = Math.max(offer.from, Math.floor(cents / m) * m);
    return t('notStep')(money(m / 100), money(lower / 100), money(nextAbove(cents, offer) / 100));
  }
  return undefined;
}

/** The least amount the offer takes above `cents` ("+ step": a whole step up, onto the step's multiples). */
function nextAbove(cents, offer) {
  if (cents < offer.from) return offer.from;
  const m = offer.multipleOf || 1;
  return (Math.floor(cents / m) + 1) * m;
}

/** An amount far above the least acceptable one asks a second time: more than twice it (a slip of a digit is ×10). */
const FAR = 2;

// ------------------------------------------------------------------------------------------------ bids

/** Shows a bid answer: a text, or a function giving it in the current language from the current document. */
function answer(text) {
  lastAnswer = typeof text === 'function' ? text : () => text;
  $('bid-answer').textContent = lastAnswer();
}

/** 32 random hex digits (getRandomValues works on plain http too, unlike randomUUID). */
const newBidId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

let proposal; // { cents, stage, far, asked } a bid shown back for confirmation, not sent yet

/**
 * A bid is shown back before it is sent: its amount, in words of what it commits to; one above FAR times the least
 * acceptable amount asks a second time. Nothing is sent until the bidder confirms; a stage change cancels it.
 */
function propose(cents) {
  const offer = currentOffer();
  const wrong = outsideOffer(cents, offer);
  if (wrong) return answer(() => outsideOffer(cents, offer));
  const stage = stageOf(room.document);
  const far = offer && offer.from < offer.upTo && cents > FAR * offer.from;
  proposal = { cents, stage: stage?.name, type: stage?.type, far, asked: 1, from: offer?.from };
  answer('');
  drawConfirm();
}

/** How many times `from` is in `cents`, to a tenth (rounded down: 2.57 is "2.5"), as the page's language writes it. */
function timesOf(cents, from) {
  const times = Math.floor((cents * 10) / from) / 10;
  const locale = lang === 'uk' ? 'uk-UA' : 'en-GB';
  return {
    text: new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(times),
    plural: new Intl.PluralRules(locale).select(times),
  };
}

function drawConfirm() {
  $('confirm').hidden = !proposal;
  if (!proposal) return;
  const amount = money(proposal.cents / 100);
  const text =
    proposal.asked === 2
      ? t('confirmFar')(amount, timesOf(proposal.cents, proposal.from), money(proposal.from / 100))
      : proposal.type === 'sealedbid'
        ? t('confirmSealed')(amount)
        : t('confirmBinding')(amount);
  $('confirm-text').textContent = text;
  $('confirm-yes').textContent = t('yes')(amount);
}

function confirmProposal() {
  if (!proposal) return;
  if (proposal.far && proposal.asked === 1) {
    proposal.asked = 2;
    return drawConfirm();
  }
  const { cents } = proposal;
  proposal = undefined;
  drawConfirm();
  sendBid(cents / 100);
}

function cancelProposal(text = '') {
  proposal = undefined;
  drawConfirm();
  answer(text);
}

function sendBid(amount) {
  const stage = room && stageOf(room.document);
  // The bid's own name (protocol `bidId`): a resend after a reconnect carries it, so the room answers it once.
  pending = { amount, stage: stage?.name, type: stage?.type, bidId: newBidId() };
  answer(() => t(socket?.readyState === WebSocket.OPEN ? 'sent' : 'queued'));
  transmit();
  draw();
}

function transmit() {
  if (pending && socket?.readyState === WebSocket.OPEN)
    socket.send(JSON.stringify({ action: 'bid', amount: pending.amount, bidId: pending.bidId }));
}

function onBidAnswer(message) {
  if (!pending || (message.bidId ?? pending.bidId) !== pending.bidId || message.amount !== pending.amount) return;
  const bid = pending;
  pending = undefined;
  if (message.outcome === 'refused') answer(() => explain(message, bid));
  else if (message.outcome === 'sealed') answer(() => (message.amount === -1 ? t('withdrawn') : sealedAnswer()));
  else if (message.amount === -1) answer(() => t('kept')(money(dutchAmount(room.document))));
  else answer(() => `${t('accepted')}: ${money(message.amount)}`);
  draw();
}

/** The Dutch winner's amount, as the results show it (the best bid's, once shown, is the Dutch winner's line too). */
const dutchAmount = (doc) => doc.history?.find((b) => b.stage.startsWith('dutch_'))?.amount;

/** A sealed bid's answer: "only you see it" while that is so; once the sealed bids are announced, that everyone does. */
function sealedAnswer() {
  const shown = room.document.results.some((r) => r.bidderNumber === me?.bidderNumber && r.amount !== undefined);
  return t(shown ? 'sealedShown' : 'sealed');
}

/**
 * A refusal in words of what happened and what now, from the document as it is when shown (a refusal can come before
 * the document that explains it: the bid that won the round): who came first, the price now, the amount the stage takes.
 */
function explain(message, bid) {
  const doc = room.document;
  if (message.code === 'stage' && bid.type === 'english') {
    const first = doc.history?.findLast((b) => b.stage === bid.stage);
    const next = doc.stages.find((s) => s.type === 'english' && instant(s.start) > serverNow());
    const then = next ? t('nextRound')(when(next.start), money(next.amount)) : '';
    if (first && first.bidderNumber !== me?.bidderNumber)
      return t('beaten')(labelOf(doc, first.bidderNumber), money(first.amount), then);
  }
  if (message.code === 'stage' && bid.type === 'dutch') {
    const offer = currentOffer();
    if (offer) return t('stepGone')(money(offer.from / 100));
  }
  const outside = bid.amount > 0 ? outsideOffer(toCents(bid.amount), currentOffer()) : undefined;
  if (['amount', 'too-low', 'not-multiple', 'below-best-step'].includes(message.code) && outside) return outside;
  return WORDS[lang].refusal[message.code] ?? message.message ?? message.code;
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
    const { amount } = pending;
    answer(() => `${t('confirmed')}: ${money(amount)}`);
    pending = undefined;
    return;
  }
  if (stageOf(room.document)?.name === pending.stage && !room.document.ended) {
    answer(() => t('resent'));
    return transmit();
  }
  pending = undefined;
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
  if (!query.has('token') && eventsAuth) return watch();
  const ws = new WebSocket(`${socketUrl}?${query}`);
  socket = ws;
  let settled = false;
  ws.onopen = () => {
    ws.send(JSON.stringify({ action: 'resume' }));
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'room') {
      // Documents come from more than one sender (each change's fan-out, the answer to resume, a bot beside a timer),
      // so an older one may arrive after a newer one: it never replaces it (the end would be lost for good).
      if (!room || message.document.version >= room.document.version) {
        room = message;
        me = message.document.me;
        syncClock(message.document.serverTime);
      }
      attempts = 0;
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
    if (socket !== ws) return;
    retry();
  };
}

// ------------------------------------------------------------------------------------------------ broadcast

let watching; // the broadcast's connection
let reading; // a read of the room under way
const early = []; // room messages the broadcast brought while the room was being read

/**
 * How far a room message is: its document's version, then what changes without a version (the auction cancelled,
 * the results posted). Publishes of concurrent changes may arrive in any order: a message not later is dropped.
 */
const rankOf = (m) => [m.document.version, m.closed ? 1 : 0, m.results === 'posted' ? 2 : m.results ? 1 : 0];
const later = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

function show(message) {
  room = message;
  me = undefined;
  syncClock(message.document.serverTime);
  attempts = 0;
  setConnection('online');
  draw();
}

/**
 * A change from the broadcast: shown if it is the next version (or the same one, further), ignored if it is older;
 * past a gap (a publish lost, or missed while reconnecting) the room is read again.
 */
function take(message) {
  if (message?.type !== 'room') return;
  if (reading || !room) {
    early.push(message);
    return reread();
  }
  if (later(rankOf(message), rankOf(room)) <= 0) return;
  if (message.document.version > room.document.version + 1) {
    early.push(message);
    return reread();
  }
  show(message);
}

/**
 * The room as it is now (the service keeps no last event): the room socket's `resume`, once, on a connection that is
 * closed after it. Undefined when the room has no document yet (not planned) or cannot be read within 15 s.
 */
function readRoom() {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${socketUrl}?${new URLSearchParams({ auction_id: auctionId })}`);
    const done = (message) => {
      clearTimeout(timer);
      ws.onclose = null;
      ws.close();
      resolve(message);
    };
    const timer = setTimeout(() => done(undefined), 15_000);
    ws.onopen = () => ws.send(JSON.stringify({ action: 'resume' }));
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'room') done(message);
    };
    ws.onclose = () => done(undefined);
  });
}

/**
 * Reads the room, shows it unless a later change came first, then applies what came meanwhile, in order. A change
 * that came before the read began was published after its write, so the read has it: one still past a gap is no
 * change of this room, and is dropped (never a loop of reads). A failed read is tried again after a second.
 */
function reread() {
  if (reading) return;
  const before = new Set(early);
  reading = readRoom().then(async (message) => {
    if (!message) await new Promise((resolve) => setTimeout(resolve, 1000));
    reading = undefined;
    // Read: the page is as current as the room (shown again only if the read is further).
    if (message) setConnection('online');
    if (message && (!room || later(rankOf(message), rankOf(room)) > 0)) show(message);
    const bogus = (m) => message && before.has(m) && m.document.version > message.document.version + 1;
    const waiting = early
      .splice(0)
      .filter((m) => !bogus(m))
      .sort((a, b) => later(rankOf(a), rankOf(b)));
    // Nothing read (no room yet): what came is shown as it is, the first change of a room being whole.
    if (!room && waiting.length) show(waiting.shift());
    if (room) for (const m of waiting) take(m);
  });
}

const base64url = (text) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * An observer's connection to the broadcast (AppSync Events' WebSocket protocol): the API key in the `header-`
 * subprotocol, `connection_init`, then a subscription to the auction's channel; once subscribed, the room is read
 * (changes published from then on are not missed), and each `data` message is a change. The service sends `ka`
 * every minute: silence past `connectionTimeoutMs` is a dead connection, closed and opened again.
 */
function watch() {
  const ws = new WebSocket(eventsUrl, ['aws-appsync-event-ws', `header-${base64url(JSON.stringify(eventsAuth))}`]);
  watching = ws;
  const id = newBidId(); // any unique name of the subscription
  let timeoutMs = 300_000;
  let silence;
  const alive = () => {
    clearTimeout(silence);
    silence = setTimeout(() => ws.close(), timeoutMs);
  };
  ws.onopen = () => {
    alive();
    ws.send(JSON.stringify({ type: 'connection_init' }));
  };
  ws.onmessage = (event) => {
    alive();
    const message = JSON.parse(event.data);
    if (message.type === 'connection_ack') {
      timeoutMs = message.connectionTimeoutMs ?? timeoutMs;
      alive();
      ws.send(JSON.stringify({ type: 'subscribe', id, channel: `/rooms/${auctionId}`, authorization: eventsAuth }));
    } else if (message.type === 'subscribe_success' && message.id === id) {
      attempts = 0;
      reread();
    } else if (message.type === 'data' && message.id === id) take(JSON.parse(message.event));
    else if (message.type.endsWith('_error') || message.type === 'error') ws.close();
  };
  ws.onclose = () => {
    clearTimeout(silence);
    if (watching !== ws) return;
    retry();
  };
}

function retry() {
  attempts += 1;
  setConnection('reconnecting', attempts);
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
  const parsed = parseAmount($('bid-amount').value);
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
  const typed = parseAmount(input.value);
  input.value = plain(nextAbove(typed.cents ?? offer.from - 1, offer));
  input.focus();
});
$('bid-withdraw').addEventListener('click', () => {
  cancelProposal();
  sendBid(-1);
});
// A new amount typed: the answer to the previous one (a refusal, say) no longer applies to what the field shows.
$('bid-amount').addEventListener('input', () => {
  if (!pending) answer('');
});
$('confirm-yes').addEventListener('click', confirmProposal);
$('confirm-no').addEventListener('click', () => cancelProposal());

drawStatic();
setConnection('connecting');
connect();
