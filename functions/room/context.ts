import { requestNow } from '#platform/clock.ts';
import { roomRepository } from '#store/room-repository.ts';
import { roomPorts } from './ports.ts';
import type { RoomContext } from './room.ts';

/**
 * What every room Lambda hands its use case: the room's items in DynamoDB, the connections and timers of API Gateway
 * and Step Functions (or, under the local runtime, its sockets and in-process timers: ports.ts), the request clock.
 * Read again at each call: the local runtime installs its ports after the modules load. A Lambda adds what its use
 * case needs besides (the handshake the participation secret, the timer and the bot the auction: auctions.ts).
 */
export const roomContext = (): RoomContext => ({ store: roomRepository, ports: roomPorts(), clock: requestNow });
