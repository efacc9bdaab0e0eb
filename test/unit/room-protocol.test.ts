import { describe, expect, it } from 'vitest';
import { ROOM_ACTIONS } from '../../functions/room/actions.ts';
import { parseMessage } from '../../functions/room/protocol.ts';
import protocol from '../../functions/room/protocol.schema.json' with { type: 'json' };

describe('the room message protocol (functions/room/protocol.schema.json)', () => {
  it('takes the three actions as the schema writes them', () => {
    expect(parseMessage('{"action":"ping"}')).toEqual({ message: { action: 'ping' } });
    expect(parseMessage('{"action":"resume"}')).toEqual({ message: { action: 'resume' } });
    expect(parseMessage('{"action":"bid","amount":101000.5}')).toEqual({
      message: { action: 'bid', amount: 101000.5 },
    });
    expect(parseMessage('{"action":"bid","amount":-1}')).toEqual({ message: { action: 'bid', amount: -1 } });
  });

  it('answers anything else in the error envelope: not JSON, no known action, a rogue field, a missing amount', () => {
    expect(parseMessage('bid 5')).toEqual({
      errors: [{ location: 'body', name: 'data', description: 'Expecting a JSON object' }],
    });
    expect(parseMessage('[1]')).toEqual({
      errors: [{ location: 'body', name: 'data', description: 'Expecting a JSON object' }],
    });
    expect(parseMessage('{"action":"sell"}')).toEqual({
      errors: [{ location: 'body', name: 'action', description: 'Expecting one of: ping, resume, bid' }],
    });
    expect(parseMessage('{"action":"ping","bidder_id":"x"}')).toEqual({
      errors: [{ location: 'body', name: 'bidder_id', description: 'Rogue field' }],
    });
    expect(parseMessage('{"action":"bid"}')).toMatchObject({ errors: [{ name: 'amount' }] });
    expect(parseMessage('{"action":"bid","amount":"100"}')).toMatchObject({ errors: [{ name: 'amount' }] });
    expect(parseMessage('{"action":"bid","amount":-2}')).toMatchObject({ errors: [{ name: 'amount' }] });
  });

  it('lists as actions exactly the messages the schema lets a client send', () => {
    expect(protocol.oneOf.map(({ $ref }) => $ref.replace('#/definitions/', ''))).toEqual([...ROOM_ACTIONS]);
  });

  it('documents every incoming action and every outgoing message type', () => {
    expect(Object.keys(protocol.definitions)).toEqual(
      expect.arrayContaining(['ping', 'resume', 'bid', 'outgoing', 'room', 'bidOutcome', 'pong', 'error']),
    );
  });
});
