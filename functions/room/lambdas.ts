/**
 * THE room's Lambdas: data only (lib/room-stack.ts makes one function per entry, lib/build.ts bundles them, the local
 * room server dispatches to the same modules). `route`: the WebSocket API route key it serves (API Gateway selects
 * by `$request.body.action`); `timer`: the Step Functions task that applies a room's due transition; `schedule`: the
 * room bot (plans rooms, closes cancelled ones, and is the timers' backstop).
 */
export interface RoomLambda {
  name: string;
  /** Module under `functions/`, without extension. */
  handler: string;
  route?: '$connect' | '$disconnect' | '$default' | 'bid' | 'ping' | 'resume';
  kind: 'route' | 'timer' | 'bot';
  /** What it may do in the table: `ro` answers from the room's items, `rw` changes them (least privilege in AWS). */
  table: 'ro' | 'rw';
  /**
   * Takes clients' messages: each spends from its connection's allowance (room/kit.ts ROOM_MESSAGES), a write of the
   * connection's own `CONN#` item, which even a read-only Lambda may make (lib/room-stack.ts).
   */
  messages?: boolean;
  /** Reads the participation secret (verifies bidders' links). */
  participation?: boolean;
  /** Posts results to the auction (it checks what it writes as the API does: ships the body validators). */
  posts?: boolean;
  /** Changes rooms, so publishes the public document to the observers' channel (appsync:EventPublish). */
  publishes?: boolean;
}

export const roomLambdas: readonly RoomLambda[] = [
  { name: 'Connect', handler: 'room/connect', route: '$connect', kind: 'route', table: 'rw', participation: true },
  { name: 'Disconnect', handler: 'room/disconnect', route: '$disconnect', kind: 'route', table: 'rw' },
  { name: 'Bid', handler: 'room/bid', route: 'bid', kind: 'route', table: 'rw', messages: true, publishes: true },
  { name: 'Ping', handler: 'room/ping', route: 'ping', kind: 'route', table: 'ro', messages: true },
  { name: 'Resume', handler: 'room/resume', route: 'resume', kind: 'route', table: 'ro', messages: true },
  { name: 'Default', handler: 'room/default', route: '$default', kind: 'route', table: 'ro', messages: true },
  { name: 'Transition', handler: 'room/transition', kind: 'timer', table: 'rw', posts: true, publishes: true },
  { name: 'Bot', handler: 'room/bot', kind: 'bot', table: 'rw', posts: true, publishes: true },
];

/** How often the room bot runs in AWS (the timers' backstop; planning waits at most this long). */
export const ROOM_BOT_SCHEDULE = 'rate(1 minute)';

/**
 * The observers' broadcast (AppSync Events): the channel namespace of the rooms, a channel per auction in it
 * (`/rooms/<auction id>`). Observers subscribe with the API key (read only); the room Lambdas publish with IAM.
 */
export const ROOM_NAMESPACE = 'rooms';
export const roomChannel = (auctionId: string) => `/${ROOM_NAMESPACE}/${auctionId}`;
