import type { IncomingMessage } from './generated/protocol-types.ts';

/**
 * The actions a client's message may name, each a definition of protocol.schema.json (the generator compiles one
 * validator each); test/unit/room-protocol.test.ts checks that the list is the schema's.
 */
export const ROOM_ACTIONS = ['ping', 'resume', 'bid'] as const satisfies readonly IncomingMessage['action'][];
export type RoomAction = (typeof ROOM_ACTIONS)[number];
