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
  /** Reads the participation secret (verifies bidders' links). */
  participation?: boolean;
  /** Posts results to the auction (it checks what it writes as the API does: ships the body validators). */
  posts?: boolean;
}

export const roomLambdas: readonly RoomLambda[] = [
  { name: 'Connect', handler: 'room/connect', route: '$connect', kind: 'route', participation: true },
  { name: 'Disconnect', handler: 'room/disconnect', route: '$disconnect', kind: 'route' },
  { name: 'Bid', handler: 'room/bid', route: 'bid', kind: 'route' },
  { name: 'Ping', handler: 'room/ping', route: 'ping', kind: 'route' },
  { name: 'Resume', handler: 'room/resume', route: 'resume', kind: 'route' },
  { name: 'Default', handler: 'room/default', route: '$default', kind: 'route' },
  { name: 'Transition', handler: 'room/transition', kind: 'timer', posts: true },
  { name: 'Bot', handler: 'room/bot', kind: 'bot', posts: true },
];

/** How often the room bot runs in AWS (the timers' backstop; planning waits at most this long). */
export const ROOM_BOT_SCHEDULE = 'rate(1 minute)';
