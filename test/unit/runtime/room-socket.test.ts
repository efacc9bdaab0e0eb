import { describe, expect, it } from 'vitest';
import { cspOf } from '../../../functions/room-page/http.ts';
import { readConfig, roomSocket } from '../../../functions/runtime/config.ts';

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
});
