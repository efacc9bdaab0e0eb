import { roomContext } from './context.ts';
import { messageHandler } from './kit.ts';
import { nowText } from './room.ts';

/** `{"action":"ping"}`: keeps the connection alive (API Gateway closes one idle for 10 minutes); the server time. */
export const handler = messageHandler('ping', async () => ({ type: 'pong', serverTime: nowText(roomContext()) }));
