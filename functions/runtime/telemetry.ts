/**
 * Names the code emits and the CDK alarms watch (CloudWatch embedded metric format): every metric is in `namespace`
 * with dimension `service`; a bot run publishes `botRuns` (1 at the end of every completed run: the heartbeat alarms
 * watch its absence) and `botItemFailures` under dimension `bot`. Data only: lib/operations.ts reads it too.
 */
export const TELEMETRY = {
  namespace: 'Agora',
  service: 'agora',
  botRuns: 'BotRuns',
  botItemFailures: 'BotItemFailures',
  authFailures: 'AuthFailures',
  throttled: 'Throttled',
  /**
   * The auction room: an ended room's results posted, a failed post (retried), and how late a stage change was applied.
   */
  roomResultsPosted: 'RoomResultsPosted',
  roomResultsPostFailures: 'RoomResultsPostFailures',
  roomTransitionLateness: 'RoomTransitionLateness',
} as const;
