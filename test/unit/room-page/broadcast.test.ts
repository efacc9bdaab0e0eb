import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: the page's own browser script, untyped (no allowJs: tsx would resolve packages' .ts sources)
import { broadcast, later, rankOf, readRoom } from '../../../functions/room-page/assets/broadcast.js';

/** A WebSocket stand-in: what was sent, and the server's side (open, say, close) by hand. */
class FakeSocket {
  static made: FakeSocket[] = [];
  sent: any[] = [];
  closed = false;
  onopen?: () => void;
  onmessage?: (event: { data: string }) => void;
  onclose?: (() => void) | null;
  constructor(
    readonly url: string,
    readonly protocols?: string[],
  ) {
    FakeSocket.made.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true;
    this.onclose?.();
  }
  say(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const room = (version: number, extra: Record<string, unknown> = {}) => ({
  type: 'room',
  document: { version },
  ...extra,
});

function observed(reads: (unknown | undefined)[]) {
  const state: any = { room: undefined };
  const shown: unknown[] = [];
  const calls = { online: 0, subscribed: 0, lost: 0, reads: 0 };
  const observer = broadcast(state, {
    url: 'wss://events.example/event/realtime',
    auth: { host: 'events.example', 'x-api-key': 'key' },
    channel: '/rooms/abc',
    newId: () => 'sub-1',
    read: async () => {
      calls.reads += 1;
      return reads.shift();
    },
    show: (message: any) => {
      state.room = message;
      shown.push(message);
    },
    online: () => calls.online++,
    subscribed: () => calls.subscribed++,
    lost: () => calls.lost++,
    Socket: FakeSocket,
  });
  return { state, shown, calls, observer, settled: async () => await state.reading };
}

beforeEach(() => {
  FakeSocket.made = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the observer’s order of changes', () => {
  it('ranks a message by its version, then the room closed, then the results posted', () => {
    expect(rankOf(room(3, { closed: true, results: 'posted' }))).toEqual([3, 1, 2]);
    expect(rankOf(room(3, { results: 'posting' }))).toEqual([3, 0, 1]);
    expect(later(rankOf(room(4)), rankOf(room(3, { closed: true })))).toBeGreaterThan(0);
    expect(later(rankOf(room(3)), rankOf(room(3, { closed: true })))).toBeLessThan(0);
    expect(later(rankOf(room(3)), rankOf(room(3)))).toBe(0);
  });

  it('reads the room first, then shows each next change, drops older ones and reads again past a gap', async () => {
    const { shown, calls, observer, settled } = observed([room(5), room(9)]);
    observer.take(room(5)); // came before the room was read: held, the room read
    await settled();
    expect(shown).toEqual([room(5)]);
    expect(calls.online).toBe(1);
    observer.take(room(6));
    observer.take(room(6)); // again: dropped
    observer.take(room(4)); // older: dropped
    observer.take(room(6, { closed: true })); // the same version, further
    expect(shown).toEqual([room(5), room(6), room(6, { closed: true })]);
    observer.take(room(9)); // a gap: the room is read again
    expect(calls.reads).toBe(2);
    await settled();
    expect(shown.at(-1)).toEqual(room(9));
    expect(shown).toHaveLength(4);
  });

  it('applies what came during a read in order, and drops a change still past a gap after it', async () => {
    const { shown, observer, settled } = observed([room(2)]);
    observer.reread();
    observer.take(room(4));
    observer.take(room(3));
    observer.take({ type: 'pong' });
    await settled();
    expect(shown).toEqual([room(2), room(3), room(4)]);

    const second = observed([room(2)]);
    second.observer.take(room(7)); // before the read began, past a gap after it: no change of this room
    await second.settled();
    expect(second.shown).toEqual([room(2)]);
    expect(second.calls.reads).toBe(1);
  });

  it('shows what came when there is no room to read yet, and tries a failed read again after a second', async () => {
    vi.useFakeTimers();
    const { shown, calls, observer, state } = observed([undefined]);
    observer.take(room(1));
    await vi.advanceTimersByTimeAsync(1000);
    await state.reading;
    expect(shown).toEqual([room(1)]);
    expect(calls.online).toBe(0);
  });
});

describe('the watch (AppSync Events’ protocol)', () => {
  it('connects with the key, subscribes to the room’s channel, reads the room once subscribed, takes its data', async () => {
    const { shown, calls, observer, settled } = observed([room(1)]);
    observer.watch();
    const ws = FakeSocket.made[0];
    expect(ws.url).toBe('wss://events.example/event/realtime');
    const [protocol, header] = ws.protocols!;
    expect(protocol).toBe('aws-appsync-event-ws');
    expect(JSON.parse(Buffer.from(header.slice('header-'.length), 'base64url').toString())).toEqual({
      host: 'events.example',
      'x-api-key': 'key',
    });
    ws.onopen!();
    expect(ws.sent).toEqual([{ type: 'connection_init' }]);
    ws.say({ type: 'connection_ack', connectionTimeoutMs: 300000 });
    expect(ws.sent[1]).toEqual({
      type: 'subscribe',
      id: 'sub-1',
      channel: '/rooms/abc',
      authorization: { host: 'events.example', 'x-api-key': 'key' },
    });
    ws.say({ type: 'subscribe_success', id: 'sub-1' });
    expect(calls.subscribed).toBe(1);
    await settled();
    ws.say({ type: 'data', id: 'sub-1', event: JSON.stringify(room(2)) });
    ws.say({ type: 'data', id: 'other', event: JSON.stringify(room(3)) });
    expect(shown).toEqual([room(1), room(2)]);
    ws.say({ type: 'subscribe_error', id: 'sub-1' });
    expect(ws.closed).toBe(true);
    expect(calls.lost).toBe(1);
  });

  it('closes a connection silent past its timeout, and a replaced connection’s close is not a loss', () => {
    vi.useFakeTimers();
    const { calls, observer } = observed([]);
    observer.watch();
    const ws = FakeSocket.made[0];
    ws.onopen!();
    ws.say({ type: 'connection_ack', connectionTimeoutMs: 1000 });
    vi.advanceTimersByTime(999);
    ws.say({ type: 'ka' });
    vi.advanceTimersByTime(999);
    expect(ws.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(ws.closed).toBe(true);
    expect(calls.lost).toBe(1);
    observer.watch();
    observer.watch();
    FakeSocket.made[1].close();
    expect(calls.lost).toBe(1);
  });
});

describe('a read of the room', () => {
  it('resumes once on its own connection and closes it with the answer', async () => {
    const read = readRoom('ws://room?auction_id=abc', { Socket: FakeSocket });
    const ws = FakeSocket.made[0];
    ws.onopen!();
    expect(ws.sent).toEqual([{ action: 'resume' }]);
    ws.say({ type: 'pong' });
    ws.say(room(3));
    expect(await read).toEqual(room(3));
    expect(ws.closed).toBe(true);
  });

  it('is undefined when the connection closes first or nothing comes in time', async () => {
    const closed = readRoom('ws://room', { Socket: FakeSocket });
    FakeSocket.made[0].close();
    expect(await closed).toBeUndefined();
    vi.useFakeTimers();
    const silent = readRoom('ws://room', { Socket: FakeSocket, timeoutMs: 50 });
    vi.advanceTimersByTime(50);
    expect(await silent).toBeUndefined();
  });
});
