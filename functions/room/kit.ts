import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { wireRuntime } from '#runtime/wiring.ts';
import type { RoomConnection } from '#domain/room/model.ts';
import { admission } from './middlewares/admission.ts';
import { errors } from './middlewares/errors.ts';
import { message } from './middlewares/message.ts';
import { observability } from './middlewares/observability.ts';
import { send } from './middlewares/send.ts';
import type { SocketContext, WebSocketEvent, WebSocketResult } from './middlewares/types.ts';
import type { Incoming } from './protocol.ts';

export { ROOM_MESSAGES } from './middlewares/admission.ts';
export { send } from './middlewares/send.ts';
export type { WebSocketEvent, WebSocketResult } from './middlewares/types.ts';

wireRuntime();

// The local room server may call it without a context, as middy allows.
type Lambda = (event: WebSocketEvent, context?: Context) => Promise<WebSocketResult>;

/**
 * The socket kit: the middy stack of every route of the room's WebSocket API, as the HTTP kit is of the API's.
 * Around all: observability (the correlation id, the request line and metrics, as an HTTP route's), then errors
 * (a refusal answered in the API's error entries, anything else a logged 500: never a thrown error). A message route
 * adds admission (the connection's allowance spent, its session found) and the message check (the protocol). Middy
 * runs the `before`s in the order of `use` and the `onError`s in reverse, hence the order below.
 */
const socketStack = () =>
  middy<WebSocketEvent, WebSocketResult, Error, SocketContext>().use(observability()).use(errors());

/** A connection route ($connect, $disconnect): the handler answers the handshake or the close. */
export const wsHandler = (fn: (event: WebSocketEvent) => Promise<WebSocketResult>): Lambda =>
  socketStack().handler((event) => fn(event)) as Lambda;

const messageStack = (action: Incoming['action'] | undefined) => socketStack().use(admission()).use(message(action));

/**
 * A message route: admitted (`connection`), its message checked for `action`, then `fn`; what `fn` answers (an
 * object, or a message already serialized) is sent to the connection.
 */
export const messageHandler = <A extends Incoming['action']>(
  action: A,
  fn: (message: Extract<Incoming, { action: A }>, connection: RoomConnection) => Promise<unknown>,
): Lambda =>
  messageStack(action).handler(async (event, context) => {
    const answer = await fn(context.message as Extract<Incoming, { action: A }>, context.connection!);
    if (answer !== undefined) await send(event.requestContext.connectionId, answer);
    return { statusCode: 200 };
  }) as Lambda;

/**
 * `$default`, a message that names no action of the protocol (or is not JSON): admitted like any message (junk is how
 * a flood comes), then refused by the message check with the protocol's errors.
 */
export const unknownMessageHandler = (): Lambda =>
  messageStack(undefined).handler(async () => ({ statusCode: 200 })) as Lambda;
