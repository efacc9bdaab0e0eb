/** The actions a client's message may name (protocol.schema.json has a definition of each); the generator compiles one validator each. */
export const ROOM_ACTIONS = ['ping', 'resume', 'bid'] as const;
export type RoomAction = (typeof ROOM_ACTIONS)[number];
