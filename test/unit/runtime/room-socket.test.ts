import { describe, expect, it } from 'vitest';
import { cspOf, observersOf } from '../../../functions/room-page/http.ts';
import { LOCAL_OBSERVERS_KEY } from '../../../functions/room-page/local-observers-key.ts';
import { readConfig, roomSocket } from '../../../functions/platform/config.ts';

describe('roomSocket (AGORA_ROOM_SOCKET): where the room page connects', () => {
  it('is unset by default (the page connects to its own host), and a ws(s) URL when set', () => {
    expect(readConfig({}).roomSocket).toBeUndefined();
    expect(readConfig({ AGORA_ROOM_SOCKET: '' }).roomSocket).toBeUndefined();
    expect(roomSocket('wss://abc123.execute-api.eu-central-1.amazonaws.com/live')).toBe(
      'wss://abc123.execute-api.eu-central-1.amazonaws.com/live',
    );
    expect(readConfig({ AGORA_ROOM_SOCKET: 'ws://localhost:8080/room' }).roomSocket).toBe('ws://localhost:8080/room');
  });

  it('refuses anything the page could not connect to, or that would carry a query or credentials', () => {
    for (const wrong of [
      'https://abc.example.org/live',
      'localhost:8080/room',
      'wss://h/live?x=1',
      'wss://h/#x',
      'wss://u:p@h/live',
    ])
      expect(() => roomSocket(wrong), wrong).toThrow(/AGORA_ROOM_SOCKET/);
  });
});

describe('observersOf (AGORA_ROOM_EVENTS): where the page observes', () => {
  const url = 'wss://abc.appsync-realtime-api.eu-central-1.amazonaws.com/event/realtime';
  const host = 'abc.appsync-api.eu-central-1.amazonaws.com';

  it("is unset by default (the local stand-in's key under the local runtime); the URL, host and key when set", () => {
    expect(observersOf(readConfig({}).observers, false)).toBeUndefined();
    expect(observersOf(undefined, true)).toEqual({ apiKey: LOCAL_OBSERVERS_KEY });
    const env = { AGORA_ROOM_EVENTS: `${url} ${host} da2-abcdefgh` };
    expect(observersOf(readConfig(env).observers, false)).toEqual({ url, host, apiKey: 'da2-abcdefgh' });
  });

  it('refuses a part missing or extra, a URL that is not ws(s):// or carries a query, a host with a path', () => {
    for (const wrong of [
      `${url} ${host}`,
      `${url} ${host} da2-abcdefgh more`,
      `https://h/event/realtime ${host} da2-abcdefgh`,
      `${url}?x=1 ${host} da2-abcdefgh`,
      `${url} ${host}/event da2-abcdefgh`,
      `${url} ${host} da2!`,
    ])
      expect(() => observersOf(wrong, false), wrong).toThrow(/AGORA_ROOM_EVENTS/);
  });
});

describe('cspOf: the room page policy', () => {
  const connectSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('connect-src'));

  it("allows only the page's own origin without a socket, and the socket's origin (not its path) with one", () => {
    expect(connectSrc(cspOf())).toBe("connect-src 'self'");
    expect(connectSrc(cspOf('wss://abc123.execute-api.eu-central-1.amazonaws.com/live'))).toBe(
      "connect-src 'self' wss://abc123.execute-api.eu-central-1.amazonaws.com",
    );
    expect(connectSrc(cspOf('ws://localhost:8080/room'))).toBe("connect-src 'self' ws://localhost:8080");
    // Everything else stays as strict as without a socket.
    expect(cspOf('wss://h.example.org/live').replace(' wss://h.example.org', '')).toBe(cspOf());
  });

  it("allows the broadcast's origin beside the socket's, each once", () => {
    expect(connectSrc(cspOf('wss://s.example.org/live', 'wss://e.example.org/event/realtime'))).toBe(
      "connect-src 'self' wss://s.example.org wss://e.example.org",
    );
    expect(connectSrc(cspOf(undefined, 'wss://e.example.org/event/realtime'))).toBe(
      "connect-src 'self' wss://e.example.org",
    );
    expect(connectSrc(cspOf('wss://e.example.org/live', 'wss://e.example.org/event/realtime'))).toBe(
      "connect-src 'self' wss://e.example.org",
    );
  });
});
