import { unknownMessageHandler } from './kit.ts';

/**
 * $default: a message that names no known action (or is not JSON): answered with the protocol's errors. It spends
 * from the connection's allowance like any message (junk is how a flood comes).
 */
export const handler = unknownMessageHandler();
