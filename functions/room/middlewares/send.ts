import { roomPorts } from '../ports.ts';

/** Sends one message to one connection: an object as JSON, a string as the message already serialized. */
export const send = (connectionId: string, message: unknown) =>
  roomPorts().send(connectionId, Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)));
