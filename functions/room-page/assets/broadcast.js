// An observer's watch of the room (room.js): the broadcast (AppSync Events' WebSocket protocol: one publish per change,
// fanned out by the service; docs/DESIGN.md "Observers"), over a read of the room once subscribed, the changes applied
// in order on top of it, and the room read again past a gap. client/room-client.ts `RoomClient.follow` takes the same
// steps.

/**
 * How far a room message is: its document's version, then what changes without a version (the auction cancelled,
 * the results posted). Publishes of concurrent changes may arrive in any order: a message not later is dropped.
 */
export const rankOf = (m) => [m.document.version, m.closed ? 1 : 0, m.results === 'posted' ? 2 : m.results ? 1 : 0];
export const later = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * The room as it is now (the service keeps no last event): the room socket's `resume`, once, on a connection (`url`:
 * the room socket's, an observer's) that is closed after it. Undefined when the room has no document yet (not planned)
 * or cannot be read within `timeoutMs`. `Socket`: the WebSocket class.
 *
 * @param {string} url
 * @param {{ Socket?: any, timeoutMs?: number }} [options]
 */
export function readRoom(url, { Socket = globalThis.WebSocket, timeoutMs = 15_000 } = {}) {
  return new Promise((resolve) => {
    const ws = new Socket(url);
    const done = (message) => {
      clearTimeout(timer);
      ws.onclose = null;
      ws.close();
      resolve(message);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    ws.onopen = () => ws.send(JSON.stringify({ action: 'resume' }));
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'room') done(message);
    };
    ws.onclose = () => done(undefined);
  });
}

export const base64url = (text) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The broadcast of one room, over the page's state (room.js `state`): it reads `room` (what the page shows) and keeps
 * its own `watching` (its connection), `reading` (a read of the room under way, a promise) and `early` (the room
 * messages that came while the room was being read). The page hands it how to connect (`url`, `auth`: the host and
 * key of the `header-` subprotocol, `channel`), a fresh subscription id (`newId`), how to read the room (`read`,
 * `readRoom`'s answer), and what to do on each turn: `show` a message (it sets `state.room`), the page is `online`
 * (read), `subscribed`, or the connection `lost` (the page connects again later). `Socket`: the WebSocket class.
 */
export function broadcast(state, { url, auth, channel, newId, read, show, online, subscribed, lost, Socket }) {
  state.early ??= [];

  /**
   * A change from the broadcast: shown if it is the next version (or the same one, further), ignored if it is older;
   * past a gap (a publish lost, or missed while reconnecting) the room is read again.
   */
  function take(message) {
    if (message?.type !== 'room') return;
    if (state.reading || !state.room) {
      state.early.push(message);
      return reread();
    }
    if (later(rankOf(message), rankOf(state.room)) <= 0) return;
    if (message.document.version > state.room.document.version + 1) {
      state.early.push(message);
      return reread();
    }
    show(message);
  }

  /**
   * Reads the room, shows it unless a later change came first, then applies what came meanwhile, in order. A change
   * that came before the read began was published after its write, so the read has it: one still past a gap is no
   * change of this room, and is dropped (never a loop of reads). A failed read is tried again after a second.
   */
  function reread() {
    if (state.reading) return;
    const before = new Set(state.early);
    state.reading = read().then(async (message) => {
      if (!message) await new Promise((resolve) => setTimeout(resolve, 1000));
      state.reading = undefined;
      // Read: the page is as current as the room (shown again only if the read is further).
      if (message) online();
      if (message && (!state.room || later(rankOf(message), rankOf(state.room)) > 0)) show(message);
      const bogus = (m) => message && before.has(m) && m.document.version > message.document.version + 1;
      const waiting = state.early
        .splice(0)
        .filter((m) => !bogus(m))
        .sort((a, b) => later(rankOf(a), rankOf(b)));
      // Nothing read (no room yet): what came is shown as it is, the first change of a room being whole.
      if (!state.room && waiting.length) show(waiting.shift());
      if (state.room) for (const m of waiting) take(m);
    });
  }

  /**
   * An observer's connection to the broadcast: the API key in the `header-` subprotocol, `connection_init`, then a
   * subscription to the auction's channel; once subscribed, the room is read (changes published from then on are not
   * missed), and each `data` message is a change. The service sends `ka` every minute: silence past
   * `connectionTimeoutMs` is a dead connection, closed and opened again.
   */
  function watch() {
    const ws = new (Socket ?? globalThis.WebSocket)(url, [
      'aws-appsync-event-ws',
      `header-${base64url(JSON.stringify(auth))}`,
    ]);
    state.watching = ws;
    const id = newId(); // any unique name of the subscription
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
        ws.send(JSON.stringify({ type: 'subscribe', id, channel, authorization: auth }));
      } else if (message.type === 'subscribe_success' && message.id === id) {
        subscribed();
        reread();
      } else if (message.type === 'data' && message.id === id) take(JSON.parse(message.event));
      else if (message.type.endsWith('_error') || message.type === 'error') ws.close();
    };
    ws.onclose = () => {
      clearTimeout(silence);
      if (state.watching !== ws) return;
      lost();
    };
  }

  return { watch, take, reread };
}
